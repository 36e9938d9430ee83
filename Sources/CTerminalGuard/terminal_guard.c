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
static char reset[256];
static size_t reset_length = 0;
static int atexit_registered = 0;

static const int flagged[] = { SIGINT, SIGTERM, SIGHUP, SIGTSTP };
static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void on_flagged(int signal) { pending_signal = signal; }

void terminal_guard_restore(void) {
    if (!active) return;
    active = 0;
    if (reset_length > 0) {
        ssize_t ignored = write(guarded_fd, reset, reset_length);
        (void)ignored;
    }
    tcsetattr(guarded_fd, TCSAFLUSH, &saved_modes);
}

static void on_fatal(int signal) {
    terminal_guard_restore();
    terminal_guard_reraise(signal);
}

static void at_exit(void) { terminal_guard_restore(); }

static void install(const int *signals, size_t count, void (*handler)(int), int flags) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = flags;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < count; i++) sigaction(signals[i], &action, NULL);
}

int terminal_guard_install(int fd, const char *reset_sequence) {
    if (tcgetattr(fd, &saved_modes) != 0) return -1;
    guarded_fd = fd;
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
    install(flagged, COUNT(flagged), on_flagged, 0);
    install(fatal, COUNT(fatal), on_fatal, SA_RESETHAND);
    if (!atexit_registered) {
        atexit(at_exit);
        atexit_registered = 1;
    }
    return 0;
}

int terminal_guard_take_signal(void) {
    int signal = pending_signal;
    pending_signal = 0;
    return signal;
}

int terminal_guard_is_active(void) { return active; }

void terminal_guard_uninstall(void) {
    active = 0;
    install(flagged, COUNT(flagged), SIG_DFL, 0);
    install(fatal, COUNT(fatal), SIG_DFL, 0);
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
    raise(signal);
}
