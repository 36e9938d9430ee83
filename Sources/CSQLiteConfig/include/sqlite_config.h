#ifndef BURROW_SQLITE_CONFIG_H
#define BURROW_SQLITE_CONFIG_H

// SQLite's process-wide settings, which `sqlite3_config` makes before SQLite is first used. It takes its
// values as C variadic arguments, which Swift cannot pass: the settings the store makes are called from here.
// Declared rather than included from <sqlite3.h>: GRDB's SQLite module already has that header, and a second
// module with it would give Swift two of every SQLite type. Inline, as CTextScan's kernel is (text_scan.h says
// why: valgrind reads the Swift module's debug information, not a C object's).
int sqlite3_config(int option, ...);

/// Turns SQLite's count of the memory it holds off (`SQLITE_CONFIG_MEMSTATUS`, 9, to 0), as SQLite's own list
/// of recommended options advises: with it on, every allocation and free of every connection takes one mutex
/// for the whole process. Returns SQLite's result: `SQLITE_MISUSE` (21) once SQLite is in use, when nothing
/// changes.
static inline int burrow_sqlite_memory_statistics_off(void) { return sqlite3_config(9, 0); }

#endif
