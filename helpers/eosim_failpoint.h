/* Failpoints for a consumer that eosim runs (eosim live --consumer CMD), in C or C++.
 * Header only, no dependencies beyond POSIX.
 *
 *   #include "eosim_failpoint.h"
 *   eosim_failpoint("after_commit", order);
 *
 * eosim_failpoint() asks eosim whether the scenario wants the consumer to die at this
 * point of its code, for this order. eosim answers "go" (the call returns 0) or kills the
 * consumer's process group with SIGKILL right there (the call never returns). Outside
 * eosim (EOSIM_FAILPOINT_SOCKET not set) it returns 0 at once, so the calls can stay in
 * production code. -1 when the socket cannot be used (errno says why).
 *
 * The protocol is one line each way on the Unix socket EOSIM_FAILPOINT_SOCKET:
 * "NAME ORDER\n" from the consumer, "go\n" from eosim. One connection per process, made
 * on the first call; not thread-safe (call it from one thread).
 */
#ifndef EOSIM_FAILPOINT_H
#define EOSIM_FAILPOINT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int eosim_failpoint_fd_ = -2; /* -2: not yet connected, -3: not under eosim */

static int eosim_failpoint_connect_(void) {
  const char* path = getenv("EOSIM_FAILPOINT_SOCKET");
  struct sockaddr_un addr;
  if (path == NULL || path[0] == '\0') {
    eosim_failpoint_fd_ = -3;
    return 0;
  }
  if (strlen(path) >= sizeof addr.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  memcpy(addr.sun_path, path, strlen(path) + 1);
  eosim_failpoint_fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
  if (eosim_failpoint_fd_ < 0) return -1;
  if (connect(eosim_failpoint_fd_, (const struct sockaddr*)&addr, sizeof addr) != 0) {
    close(eosim_failpoint_fd_);
    eosim_failpoint_fd_ = -2;
    return -1;
  }
  return 0;
}

static int eosim_failpoint(const char* name, long long order) {
  char line[128];
  char answer[4];
  size_t got = 0;
  int length;
  if (eosim_failpoint_fd_ == -2 && eosim_failpoint_connect_() != 0) return -1;
  if (eosim_failpoint_fd_ == -3) return 0;
  length = snprintf(line, sizeof line, "%s %lld\n", name, order);
  if (length < 0 || (size_t)length >= sizeof line) {
    errno = EINVAL;
    return -1;
  }
  if (send(eosim_failpoint_fd_, line, (size_t)length, MSG_NOSIGNAL) != length) return -1;
  while (got < 3) {
    const ssize_t n = recv(eosim_failpoint_fd_, answer + got, 3 - got, 0);
    if (n == 0) {
      sleep(10); /* eosim sent SIGKILL to this process group; it arrives any moment */
      errno = EPIPE;
      return -1;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    got += (size_t)n;
  }
  if (memcmp(answer, "go\n", 3) != 0) {
    errno = EPROTO;
    return -1;
  }
  return 0;
}

#endif /* EOSIM_FAILPOINT_H */
