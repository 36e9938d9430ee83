// The ncursesw API as Swift can use it. Only the CursesBackend target imports this module.
//
// Swift cannot import function-like macros (KEY_F, the A_* and BUTTON* masks), and under Swift 6 reading
// ncurses' mutable globals (stdscr, LINES, COLS, COLORS, COLOR_PAIRS) is refused as shared mutable state,
// so both go through the small inline helpers below.
#ifndef BURROW_CNCURSESW_SHIM_H
#define BURROW_CNCURSESW_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <stdio.h>
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// wcwidth is declared by <wchar.h> only under _XOPEN_SOURCE, which this header cannot set for the whole C library.
extern int wcwidth(wchar_t c);

/// The display width the C library (and so ncurses) gives a character: what ncurses will advance by.
static inline int burrow_wcwidth(wchar_t c) { return wcwidth(c); }

/// What terminfo says of `$TERM`, read without touching the terminal (newterm would already change its modes):
/// 1 when it can address the cursor, 0 when it cannot (dumb, a printing or generic terminal), -1 when there is
/// no description.
static inline int burrow_terminal_addresses_cursor(void) {
    int found = 0;
    if (setupterm(NULL, fileno(stdout), &found) != OK) return -1;
    const char *cup = tigetstr("cup");
    int addressable = cup != NULL && cup != (char *)-1 && tigetflag("hc") != 1 && tigetflag("gn") != 1;
    del_curterm(cur_term);
    return addressable;
}

/// newterm on the process's standard output and input (Swift 6 cannot read the stdio globals).
static inline SCREEN *burrow_newterm(void) { return newterm(NULL, stdout, stdin); }

static inline WINDOW *burrow_stdscr(void) { return stdscr; }
static inline int burrow_lines(void) { return LINES; }
static inline int burrow_cols(void) { return COLS; }

static inline int burrow_key_f(int n) { return KEY_F(n); }

static inline mmask_t burrow_mouse_events(void) {
    return BUTTON1_PRESSED | BUTTON2_PRESSED | BUTTON3_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
        | BUTTON5_PRESSED
#endif
        | BUTTON_SHIFT | BUTTON_CTRL | BUTTON_ALT;
}
/// The button (1–3, 4 wheel up, 5 wheel down) pressed in `state`, or 0.
static inline int burrow_mouse_button(mmask_t state) {
    if (state & BUTTON1_PRESSED) return 1;
    if (state & BUTTON2_PRESSED) return 2;
    if (state & BUTTON3_PRESSED) return 3;
    if (state & BUTTON4_PRESSED) return 4;
#ifdef BUTTON5_PRESSED
    if (state & BUTTON5_PRESSED) return 5;
#endif
    return 0;
}
/// Shift 1, Alt 2, Ctrl 4 (xterm's modifier bits) held during a mouse event.
static inline int burrow_mouse_modifiers(mmask_t state) {
    return ((state & BUTTON_SHIFT) ? 1 : 0) | ((state & BUTTON_ALT) ? 2 : 0) | ((state & BUTTON_CTRL) ? 4 : 0);
}

/// A terminfo string capability, or NULL when the terminal has none (ncurses returns (char *)-1 for that too).
static inline const char *burrow_tigetstr(const char *name) {
    char *value = tigetstr((char *)name);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

/// A terminfo flag of the current terminal: 1 set, 0 not (or not a flag of this terminal).
static inline int burrow_tigetflag(const char *name) { return tigetflag((char *)name) == 1; }

/// A terminfo number of the current terminal, or -1 when it has none.
static inline int burrow_tigetnum(const char *name) {
    int value = tigetnum((char *)name);
    return value < 0 ? -1 : value;
}

/// `tiparm` with two numbers (it is variadic, which Swift cannot call), for the test that compares it with
/// `TerminfoFormat`; NULL when it cannot format. Its result is ncurses' static buffer.
static inline const char *burrow_tiparm2(const char *capability, int a, int b) { return tiparm(capability, a, b); }

/// Writes `count` bytes to the terminal, all of them unless it fails (restarting after a signal, waiting while
/// it is full): a frame goes to the terminal in one call when it can.
static inline int burrow_write_all(const unsigned char *bytes, long count) {
    while (count > 0) {
        ssize_t n = write(fileno(stdout), bytes, (size_t)count);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) {
                struct pollfd out = { fileno(stdout), POLLOUT, 0 };
                poll(&out, 1, 100);
                continue;
            }
            return -1;
        }
        bytes += n;
        count -= n;
    }
    return 0;
}

/// Writes an escape sequence straight to the terminal, for modes terminfo does not describe (bracketed paste).
static inline void burrow_write_raw(const char *sequence) {
    fputs(sequence, stdout);
    fflush(stdout);
}

#endif
