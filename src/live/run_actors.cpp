#include "src/live/run_actors.h"

#include <signal.h>
#include <sys/wait.h>

#include <fstream>

#include "sim/assert.h"
#include "src/live/process.h"
#include "src/live/user_consumer.h"
#include "src/producer/design.h"

namespace live {

std::vector<Actor> actors_of(const lab::Scenario& s, const ActorArgs& base) {
  std::vector<Actor> actors;
  for (std::int64_t i = 1; i <= s.consumer.instances; ++i) {
    Actor a{base};
    a.args.role = "consumer";
    a.args.instance = static_cast<int>(i);
    a.restart_ticks = s.consumer.restart_after;
    if (!s.consumer.command.empty()) {
      a.command = s.consumer.command;
      a.env = user_consumer_env(s, base.run_dir, base.queue_prefix + "orders", a.args.instance);
    }
    actors.push_back(a);
  }
  const producer::PatternPreset* preset = producer::find_pattern(s.producer.pattern);
  EOSIM_ASSERT(preset != nullptr);  // the scenario loader checked the name
  if (preset->pattern == producer::Pattern::kOutbox ||
      preset->pattern == producer::Pattern::kOutboxNoConfirm) {
    Actor relay{base};
    relay.args.role = "relay";
    relay.restart_ticks = s.producer.relay_restart_after;
    actors.push_back(relay);
  }
  Actor producer{base};
  producer.args.role = "producer";
  producer.restart_ticks = s.producer.restart_after;
  actors.push_back(producer);
  return actors;
}

sim::Tick tick_at(const ActorArgs& args, std::int64_t ms) {
  return ms <= args.origin_ms ? 0 : static_cast<sim::Tick>((ms - args.origin_ms) / args.tick_ms);
}

Status start_actor(Actor& actor, const std::string& self) {
  ChildSpec spec;
  spec.argv = actor.command.empty() ? actor_argv(self, actor.args)
                                    : std::vector<std::string>{"/bin/sh", "-c", actor.command};
  spec.env = actor.env;
  spec.env.push_back(std::string(kBrokerUrlEnv) + "=" + actor.args.broker_url);
  spec.output_path = actor.args.run_dir + "/" + actor.args.node() + ".log";
  actor.restart_at_ms = -1;
  if (Status st = spawn(spec, actor.pid); !st.ok()) {
    actor.pid = 0;
    return Status::error("cannot start " + actor.args.node() + ": " + st.message);
  }
  // The user's program may start processes of its own that PDEATHSIG does not reach: its
  // group is killed on a fatal signal to eosim (process.h, invariant 3).
  if (!actor.command.empty()) register_group(actor.pid);
  return Status::success();
}

void stop_actor(Actor& actor) {
  if (actor.pid == 0) return;
  signal_group(actor.pid, SIGTERM);
  if (!wait_exit(actor.pid, 3000)) {
    signal_group(actor.pid, SIGKILL);
    wait_exit(actor.pid, 3000);
  }
  signal_group(actor.pid, SIGKILL);
  wait_group_gone(actor.pid, 3000);
  unregister_group(actor.pid);
  actor.pid = 0;
}

// The run folder may be gone by the time an error is read, so the error carries the line.
std::string last_log_line(const ActorArgs& args) {
  std::ifstream in(args.run_dir + "/" + args.node() + ".log");
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

namespace {

std::int64_t restart_ms_of(const Actor& actor) { return actor.restart_ticks * actor.args.tick_ms; }

std::string how_it_ended(int status) {
  return WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                           : "signal " + std::to_string(WTERMSIG(status));
}

// The user's consumer ended without a failpoint's kill: back like a crashed one, unless
// the shell could not run the command at all.
Status user_consumer_ended(Actor& actor, int status, std::int64_t now_ms,
                           std::vector<sim::TraceEvent>& events) {
  const std::string last = last_log_line(actor.args);
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127)) {
    return Status::bad_input_error("the consumer command '" + actor.command +
                                   "' could not be run (" + how_it_ended(status) + ")" +
                                   (last.empty() ? "" : ": " + last));
  }
  ++actor.ended_on_its_own;
  actor.restart_at_ms = now_ms + restart_ms_of(actor);
  events.push_back({0, tick_at(actor.args, now_ms), actor.args.node(), sim::EventKind::kCrash, "",
                    0,
                    "your consumer ended on its own (" + how_it_ended(status) +
                        "): started again like a crashed one" + (last.empty() ? "" : "; " + last)});
  return Status::success();
}

}  // namespace

Status reap(Actor& actor, std::int64_t now_ms, std::vector<sim::TraceEvent>& events) {
  if (actor.pid == 0) return Status::success();
  int status = 0;
  if (reap_child(actor.pid, &status) != actor.pid) return Status::success();
  signal_group(actor.pid, SIGKILL);
  unregister_group(actor.pid);
  actor.pid = 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    actor.restart_at_ms = now_ms + restart_ms_of(actor);
    events.push_back({0, tick_at(actor.args, now_ms), actor.args.node(), sim::EventKind::kCrash, "",
                      0, "process killed by SIGKILL at its crash site"});
    return Status::success();
  }
  if (!actor.command.empty()) return user_consumer_ended(actor, status, now_ms, events);
  const std::string last = last_log_line(actor.args);
  return Status::error(actor.args.node() + " ended on its own (" + how_it_ended(status) + ")" +
                       (last.empty() ? "" : ": " + last));
}

}  // namespace live
