// Restoring the terminal on every way out, from signal handlers where only async-signal-safe calls are allowed.
//
// Termination and suspend signals (SIGINT, SIGTERM, SIGHUP, SIGTSTP) only set a flag: the input loop sees it
// within its timeout and shuts down (or suspends) in normal code. Crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
// SIGABRT, SIGTRAP) and exit() cannot wait: they write the saved reset sequence and put the saved terminal
// modes back with write(2) and tcsetattr(3), then let the signal do what it would have done.
#ifndef BURROW_TERMINAL_GUARD_H
#define BURROW_TERMINAL_GUARD_H

/// Saves the terminal modes of `fd` and the sequence that undoes what the program switched on, then installs
/// the handlers. Returns 0, or -1 when `fd`'s modes cannot be read.
int terminal_guard_install(int fd, const char *reset_sequence);

/// Takes the pending flagged signal (0 when none).
int terminal_guard_take_signal(void);

/// True while the program owns the terminal (between install and uninstall).
int terminal_guard_is_active(void);

/// Puts the saved modes back and writes the reset sequence (async-signal-safe).
void terminal_guard_restore(void);

/// Removes the handlers (after the program restored the terminal itself).
void terminal_guard_uninstall(void);

/// Stops the process as SIGTSTP would, returning when it is continued (the caller restored the terminal first).
void terminal_guard_suspend(void);

/// Ends the process by `signal` with its default action, so the parent sees the real cause.
void terminal_guard_reraise(int signal);

#endif
