#ifndef BURROW_TEXT_SCAN_H
#define BURROW_TEXT_SCAN_H

#include <stddef.h>

/// The rows of a search-index chunk's texts that hold `needle`: `texts` is `length` bytes of texts, each
/// ended by the byte 0xFF, `columns` texts to a row. Writes each matching row's index once, ascending, to
/// `rows` (room for `capacity`), and returns how many; -1 when the texts hold more than `capacity` rows
/// (damaged bytes). `needle` (`needle_length` > 0) must not hold 0xFF, so a match lies within one text.
/// Reads no byte outside `texts` and `needle`.
long burrow_text_scan(const unsigned char *texts, size_t length, const unsigned char *needle, size_t needle_length,
                      long columns, long *rows, long capacity);

#endif
