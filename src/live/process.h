#pragma once
// Child processes for the live side: started in their own process group, killed with it,
// and never outliving this process.
//
// Invariants:
//  (1) Every child runs in a new process group whose id is its pid, so a signal to the
//      group reaches everything it started (a shell script and the VM it runs).
//  (2) Every child is started with PR_SET_PDEATHSIG = SIGKILL: if this process dies, even
//      by SIGKILL, the direct child is killed by the kernel.
//  (3) While a group is registered, SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGABRT (a failed
//      assertion) to this process
//      first SIGKILL every registered group, then take their default action - an
//      interrupted test leaves nothing running.
//  (4) After defer_interrupts(), the first SIGINT, SIGTERM or SIGHUP only sets
//      interrupted(): the program stops what it started in order (its actors, its broker),
//      removes its temporary folders - which a signal handler cannot do - and then calls
//      end_interrupted(). A second one, SIGQUIT or SIGABRT still takes the path of (3).
//  (5) A child gets stdin, stdout and stderr and no other descriptor of this process, even
//      one opened without O_CLOEXEC (Boost.Asio's sockets are). Else a socket closed here
//      lives on in the child: the fault proxy's reset of an actor's connection, when a
//      RabbitMQ node restarted meanwhile had inherited it, sent nothing, and the actor
//      never learnt that the broker it talked to had died.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "src/live/status.h"

namespace live {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the program's path
  std::vector<std::string> env;   // "KEY=VALUE", added to (and overriding) our environment
  std::string output_path;        // stdout and stderr go here (appended); "" = /dev/null
  // Run the child as this user (PostgreSQL refuses to run as root). Only when this process
  // is root; "" = as ourselves. The output file is opened before the switch (so it may be
  // ours), the child starts in "/" (our working folder may be closed to that user), and
  // PDEATHSIG is set after the switch: the kernel clears it when the credentials change.
  std::string user;
};

// Starts the child. REQUIRES: !spec.argv.empty().
Status spawn(const ChildSpec& spec, pid_t& pid);
// Runs the child to completion, at most `timeout_ms`; `exit_code` is its exit status
// (-1 if it was killed at the deadline).
Status run_to_end(const ChildSpec& spec, int timeout_ms, int& exit_code);

// waitpid(pid, status, WNOHANG) for a child spawn() started (or -pgid: one of its group);
// what it reaps is no longer that spawn's to reap, and reap_orphans may take orphans again.
// Every owner reaps its children through this.
pid_t reap_child(pid_t pid, int* status);
// Waits up to `timeout_ms` for `pid` (a child of ours) to exit and reaps it.
bool wait_exit(pid_t pid, int timeout_ms);
// True while any process of group `pgid` exists.
bool group_alive(pid_t pgid);
// Sends `sig` to every process of the group (ignores a group that is gone).
void signal_group(pid_t pgid, int sig);
// Waits up to `timeout_ms` until group `pgid` is empty.
bool wait_group_gone(pid_t pgid, int timeout_ms);

// Ends a registered group: `sig` to it, up to `timeout_ms` for it to go, else SIGKILL; then
// unregisters it and sets `pgid` to 0 (a no-op when it is 0). False if it had to be killed.
bool stop_group(pid_t& pgid, int sig, int timeout_ms);

// Milliseconds since `began` on the steady clock: how long a start or a stage took, for
// the report (never a decision of a run).
std::int64_t elapsed_ms(std::chrono::steady_clock::time_point began);

// Registry for invariant (3). register_group installs the handlers on first use.
void register_group(pid_t pgid);
void unregister_group(pid_t pgid);

// Invariant (4). Waiting loops of this library (run_to_end, a broker's start) give up with
// an error once interrupted() is set.
void defer_interrupts();
int interrupted();  // the deferred signal's number, 0 while none came
// Dies of the deferred signal, as if it had not been deferred (the shell sees 128 + sig).
// REQUIRES: interrupted() != 0.
[[noreturn]] void end_interrupted();

}  // namespace live
