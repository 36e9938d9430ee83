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
static inline int burrow_colors(void) { return COLORS; }
static inline int burrow_color_pairs(void) { return COLOR_PAIRS; }

static inline int burrow_key_f(int n) { return KEY_F(n); }

static inline attr_t burrow_attr_bold(void) { return WA_BOLD; }
static inline attr_t burrow_attr_dim(void) { return WA_DIM; }
static inline attr_t burrow_attr_reverse(void) { return WA_REVERSE; }
static inline attr_t burrow_attr_underline(void) { return WA_UNDERLINE; }

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

/// Draws one cell: a base character plus up to four combining characters, with attributes and a colour pair.
static inline int burrow_put_cell(int y, int x, const wchar_t *text, attr_t attributes, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attributes, pair, NULL) != OK) return ERR;
    // Not `mvadd_wch`: it leaves the cell after a narrow character marked as the second half of the wide
    // character that was there, and `wadd_wchnstr` (the ASCII runs) then blanks the cell before such a mark,
    // this one. `wadd_wchnstr` blanks what is left of a wide character it overwrites, on both sides.
    return mvwadd_wchnstr(stdscr, y, x, &cell, 1);
}

/// Puts a run of printable ASCII characters (0x20...0x7E, `count` of them) of one style on row `y` from column
/// `x`, the caller having checked they fit: one cell is made by `setcchar` and copied for the others with
/// their own character, and the row takes them all at once (`wadd_wchnstr` neither wraps nor interprets).
/// Per cell, `setcchar` and `wadd_wch` measured a wide string and the character's width: a third of a frame.
static inline int burrow_put_ascii_run(int y, int x, const unsigned char *bytes, int count, attr_t attributes, short pair) {
    wchar_t blank[2] = { L' ', 0 };
    cchar_t model;
    cchar_t cells[128];
    if (setcchar(&model, blank, attributes, pair, NULL) != OK) return ERR;
    while (count > 0) {
        int n = count < 128 ? count : 128;
        for (int i = 0; i < n; i++) {
            cells[i] = model;
            cells[i].chars[0] = (wchar_t)bytes[i];
        }
        if (mvwadd_wchnstr(stdscr, y, x, cells, n) == ERR) return ERR;
        bytes += n;
        x += n;
        count -= n;
    }
    return OK;
}

/// Writes an escape sequence straight to the terminal, for modes terminfo does not describe (bracketed paste).
static inline void burrow_write_raw(const char *sequence) {
    fputs(sequence, stdout);
    fflush(stdout);
}

#endif
