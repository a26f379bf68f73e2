//===- RunSelf.h - Run one test of this binary in a fresh process -*- C++
//-*-===//
//
// For what only a fresh process shows: a process that has run threads is
// never single-threaded again (not even a forked child), and what runs at
// exit runs once. The child gets \p Env set to 1 and runs \p Filter alone.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_UNIT_RUNTIME_RUNSELF_H
#define MEMPLAN_TEST_UNIT_RUNTIME_RUNSELF_H

#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char **environ;

namespace memplan::test {

/// The child's exit status, or -1 if it could not start or did not exit.
inline int runSelf(const char *Filter, const char *Env) {
  std::vector<std::string> Args = {"/proc/self/exe",
                                   std::string("--gtest_filter=") + Filter};
  std::vector<std::string> Envs = {std::string(Env) + "=1"};
  for (char **E = environ; *E; ++E)
    Envs.push_back(*E);
  std::vector<char *> Argv, Envp;
  for (std::string &S : Args)
    Argv.push_back(S.data());
  Argv.push_back(nullptr);
  for (std::string &S : Envs)
    Envp.push_back(S.data());
  Envp.push_back(nullptr);
  pid_t Pid;
  if (posix_spawn(&Pid, Argv[0], nullptr, nullptr, Argv.data(), Envp.data()))
    return -1;
  int Status = 0;
  if (waitpid(Pid, &Status, 0) != Pid || !WIFEXITED(Status))
    return -1;
  return WEXITSTATUS(Status);
}

} // namespace memplan::test

#endif // MEMPLAN_TEST_UNIT_RUNTIME_RUNSELF_H
