#include "terminal_guard.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t pending_signal = 0;
static volatile sig_atomic_t active = 0;
static int guarded_fd = -1;
static struct termios saved_modes;
static int modes_saved = 0;
static char reset[256];
static size_t reset_length = 0;
static int atexit_registered = 0;
static int installed = 0;

// Signals whose default action ends the process, by what the guard does with them. SIGKILL and SIGSTOP
// cannot be caught; SIGPROF is left to profilers and the real-time signals to the C library.
//
// Asking the program to end (or to stop, SIGTSTP): a flag the input loop turns into an orderly end in normal
// code, which then re-raises the signal so the parent sees it.
static const int flagged[] = {
    SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};
// Crashes and the signals that dump core by default: the program cannot (or should not) go on, so the handler
// restores the terminal itself and the signal then does what it would have done (a core dump included).
static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT, SIGSYS, SIGXCPU, SIGXFSZ };
// A write to a closed pipe or socket fails with EPIPE instead of ending the program with the terminal raw.
static const int ignored[] = { SIGPIPE };
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

// The actions found at install (the Swift runtime's backtracer, say), put back at uninstall.
static struct sigaction previous_flagged[COUNT(flagged)];
static struct sigaction previous_fatal[COUNT(fatal)];
static struct sigaction previous_ignored[COUNT(ignored)];

static void on_flagged(int signal) { pending_signal = signal; }

static void on_ignored(int signal) { (void)signal; }

void terminal_guard_restore(void) {
    if (!active) return;
    active = 0;
    if (reset_length > 0) {
        ssize_t ignored_result = write(guarded_fd, reset, reset_length);
        (void)ignored_result;
    }
    if (modes_saved) tcsetattr(guarded_fd, TCSAFLUSH, &saved_modes);
}

static void on_fatal(int signal) {
    terminal_guard_restore();
    terminal_guard_reraise(signal);
}

static void at_exit(void) { terminal_guard_restore(); }

static void install(const int *signals, size_t count, void (*handler)(int), int flags, struct sigaction *previous) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = flags;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < count; i++) sigaction(signals[i], &action, previous == NULL ? NULL : &previous[i]);
}

static void put_back(const int *signals, size_t count, const struct sigaction *previous) {
    for (size_t i = 0; i < count; i++) sigaction(signals[i], &previous[i], NULL);
}

int terminal_guard_save(int fd) {
    if (tcgetattr(fd, &saved_modes) != 0) return -1;
    guarded_fd = fd;
    modes_saved = 1;
    return 0;
}

void terminal_guard_install(const char *reset_sequence) {
    reset_length = 0;
    if (reset_sequence != NULL) {
        reset_length = strlen(reset_sequence);
        if (reset_length >= sizeof reset) reset_length = sizeof reset - 1;
        memcpy(reset, reset_sequence, reset_length);
    }
    pending_signal = 0;
    active = 1;
    // A parent may have started us with these signals blocked (blocked masks are inherited): unblock them,
    // or SIGTERM would never reach the handler and SIGTSTP could not stop the process.
    sigset_t unblock;
    sigemptyset(&unblock);
    for (size_t i = 0; i < COUNT(flagged); i++) sigaddset(&unblock, flagged[i]);
    for (size_t i = 0; i < COUNT(fatal); i++) sigaddset(&unblock, fatal[i]);
    sigaddset(&unblock, SIGCONT);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    // No SA_RESTART: a blocking read returns at once, so the input loop sees the flag without waiting.
    int first = !installed;
    install(flagged, COUNT(flagged), on_flagged, 0, first ? previous_flagged : NULL);
    install(fatal, COUNT(fatal), on_fatal, SA_RESETHAND, first ? previous_fatal : NULL);
    // A handler that does nothing rather than SIG_IGN, which programs we started would inherit.
    install(ignored, COUNT(ignored), on_ignored, SA_RESTART, first ? previous_ignored : NULL);
    installed = 1;
    if (!atexit_registered) {
        atexit(at_exit);
        atexit_registered = 1;
    }
}

int terminal_guard_take_signal(void) {
    int signal = pending_signal;
    pending_signal = 0;
    return signal;
}

int terminal_guard_is_active(void) { return active; }

void terminal_guard_uninstall(void) {
    active = 0;
    if (!installed) return;
    put_back(flagged, COUNT(flagged), previous_flagged);
    put_back(fatal, COUNT(fatal), previous_fatal);
    put_back(ignored, COUNT(ignored), previous_ignored);
    installed = 0;
}

void terminal_guard_suspend(void) {
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTSTP, &action, &previous);
    raise(SIGTSTP);
    // Continued: catch the next SIGTSTP again.
    sigaction(SIGTSTP, &previous, NULL);
}

void terminal_guard_reraise(int signal) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    // In a handler its own signal is blocked: raised now, it ends the process as soon as the handler returns.
    raise(signal);
}
