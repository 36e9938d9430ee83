// Restoring the terminal on every way out, from signal handlers where only async-signal-safe calls are allowed.
//
// What each signal does while the program owns the terminal (see docs/DECISIONS.md, "Signals"):
// - SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPOLL, SIGPWR, SIGSTKFLT ask the program
//   to end: they only set a flag; the input loop sees it within its timeout, the program ends in normal code
//   (restoring the terminal) and re-raises the signal, so the parent sees death by it. SIGTSTP sets the same
//   flag and the loop suspends instead.
// - Crashes and the signals that dump core (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT,
//   SIGSYS, SIGXCPU, SIGXFSZ) and exit() cannot wait: they write the saved reset sequence and put the saved
//   terminal modes back with write(2) and tcsetattr(3), then let the signal do what it would have done.
// - SIGPIPE is caught and does nothing: a failed write reports EPIPE instead of ending the program raw.
// - SIGKILL and SIGSTOP cannot be caught; SIGPROF and the real-time signals are left as they were.
#ifndef BURROW_TERMINAL_GUARD_H
#define BURROW_TERMINAL_GUARD_H

/// Saves the terminal modes of `fd`, before anything changes them: they are what a crash restores. Returns 0,
/// or -1 when they cannot be read.
int terminal_guard_save(int fd);

/// Remembers the sequence that undoes what the program switched on, then installs the handlers (keeping the
/// actions they replace for `terminal_guard_uninstall`). Call after `terminal_guard_save`.
void terminal_guard_install(const char *reset_sequence);

/// Takes the pending flagged signal (0 when none).
int terminal_guard_take_signal(void);

/// True while the program owns the terminal (between install and uninstall).
int terminal_guard_is_active(void);

/// Puts the saved modes back and writes the reset sequence (async-signal-safe).
void terminal_guard_restore(void);

/// Puts back the actions the handlers replaced (after the program restored the terminal itself).
void terminal_guard_uninstall(void);

/// Stops the process as SIGTSTP would, returning when it is continued (the caller restored the terminal first).
void terminal_guard_suspend(void);

/// Ends the process by `signal` with its default action, so the parent sees the real cause.
void terminal_guard_reraise(int signal);

#endif
