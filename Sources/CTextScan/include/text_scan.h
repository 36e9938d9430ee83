#ifndef BURROW_TEXT_SCAN_H
#define BURROW_TEXT_SCAN_H

#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The kernel lives here, inline, and is compiled into the Swift module that calls it: Swift's debug info is
// DWARF 4, which valgrind 3.19 reads; the DWARF 5 clang gives a C file's object made valgrind give up on
// every binary that linked it ("Possibly corrupted debuginfo file"), and callgrind is how instructions are
// counted here (docs/PERFORMANCE.md).

// One pass over the texts, 16 bytes at a time: the positions where both the needle's first and last byte
// are in place are tested in full, and the text ends before each match are counted from the same loads,
// so the row of a match costs a population count. Why C: Swift has no movemask, and the per-match work
// through its SIMD types cost four times this (docs/PERFORMANCE.md, Search).

/// True when the 0xFE at `p` stands alone: first in its text and followed by the end of it.
static inline int burrow_text_scan_none_alone(const unsigned char *texts, size_t length, size_t p) {
    return (p == 0 || texts[p - 1] == 0xFF) && p + 1 < length && texts[p + 1] == 0xFF;
}

/// True when the needle's bytes between its first and last (already compared) are at `p + 1` of `texts`:
/// up to 8 of them in one 64-bit comparison when 8 bytes can be read there (a call to memcmp per candidate was
/// a tenth of a common word's scan), else memcmp.
static inline int burrow_text_scan_middle(const unsigned char *texts, size_t length, size_t p, const unsigned char *needle,
                                          size_t m) {
    if (m <= 2) return 1;
    const size_t k = m - 2;
    if (k <= 8 && p + 1 + 8 <= length) {
        unsigned long long a, b = 0;
        memcpy(&a, texts + p + 1, 8);
        memcpy(&b, needle + 1, k);
        const unsigned long long mask = k == 8 ? ~0ULL : ((1ULL << (8 * k)) - 1ULL);
        return ((a ^ b) & mask) == 0;
    }
    return memcmp(texts + p + 1, needle + 1, k) == 0;
}

/// The IDs of rows `rows[0..<found]` (ascending row numbers) of a chunk whose IDs are the LEB128 varints in
/// `ids[0..<length]`, each less the one before (the first less `start`): writes them to `out`. Returns 0 on
/// damaged bytes (a varint past the end or wider than 64 bits, a later delta of 0, an ID past the largest
/// 64-bit integer), else 1. The scan's hits in a chunk where a quarter of the rows match were a million
/// varints read with Swift's checked arithmetic: a quarter of a common word's search.
static inline int burrow_chunk_ids(const unsigned char *ids, size_t length, long long start, const long *rows, long found,
                                   long long *out) {
    size_t at = 0;
    long row = -1;
    unsigned long long id = (unsigned long long)start;
    for (long k = 0; k < found; k++) {
        const long want = rows[k];
        while (row < want) {
            unsigned long long delta = 0;
            unsigned shift = 0;
            for (;;) {
                if (at >= length || shift >= 64) return 0;
                const unsigned char b = ids[at++];
                delta |= (unsigned long long)(b & 0x7F) << shift;
                if (b < 0x80) break;
                shift += 7;
            }
            if (row >= 0 && delta == 0) return 0;
            // In the signed order (sign bit flipped), the ID plus delta must not pass the largest.
            if (delta > ~(id ^ (1ULL << 63))) return 0;
            id += delta;
            row++;
        }
        out[k] = (long long)id;
    }
    return 1;
}

static inline int burrow_text_scan_record(long row, long *rows, long capacity, long *found) {
    if (row >= capacity) return 0;
    if (*found == 0 || rows[*found - 1] != row) rows[(*found)++] = row;
    return 1;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define BURROW_TEXT_SCAN_AVX2 1

/// Whether the processor has AVX2 (asked once; a race only asks twice).
static inline int burrow_text_scan_has_avx2(void) {
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
}

/// The loop of `burrow_text_scan` 32 bytes at a time, where the processor has AVX2 (twice the SSE2 loop's
/// bytes per step): advances `*at`, `*found` and `*ended` past the blocks it takes; 0 on damaged bytes.
__attribute__((target("avx2,popcnt")))
static inline int burrow_text_scan_avx2(const unsigned char *texts, size_t length, const unsigned char *needle,
                                        size_t m, long columns, long *rows, long capacity, size_t *at,
                                        long *found, long *ended) {
    const __m256i first = _mm256_set1_epi8((char)needle[0]), last = _mm256_set1_epi8((char)needle[m - 1]);
    const __m256i end = _mm256_set1_epi8((char)0xFF), none = _mm256_set1_epi8((char)0xFE);
    size_t i = *at;
    long ends_before = *ended;
    while (i + 32 + m - 1 <= length) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(texts + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(texts + i + m - 1));
        unsigned candidates =
            (unsigned)_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, first), _mm256_cmpeq_epi8(b, last)));
        const unsigned ends = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, end));
        unsigned nones = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, none));
        while (nones) {
            if (!burrow_text_scan_none_alone(texts, length, i + (size_t)__builtin_ctz(nones))) return 0;
            nones &= nones - 1;
        }
        while (candidates) {
            const unsigned k = (unsigned)__builtin_ctz(candidates);
            if (burrow_text_scan_middle(texts, length, i + k, needle, m)) {
                const long before = ends_before + __builtin_popcount(ends & ((1u << k) - 1u));
                if (!burrow_text_scan_record(before / columns, rows, capacity, found)) return 0;
            }
            candidates &= candidates - 1;
        }
        ends_before += __builtin_popcount(ends);
        i += 32;
    }
    *at = i;
    *ended = ends_before;
    return 1;
}
#endif

/// The rows of a search-index chunk's texts that hold `needle`: `texts` is `length` bytes of `capacity`
/// rows of `columns` texts, each text ended by the byte 0xFF, 0xFE standing alone for none. Writes each
/// matching row's index once, ascending, to `rows` (room for `capacity`), and returns how many; -1 when the
/// texts are not that (damaged bytes: more or fewer texts, a stray 0xFE, no 0xFF at the end), checked in
/// the same pass. `needle` (`needle_length` > 0) holds neither 0xFF nor 0xFE (it is UTF-8), so a match lies
/// within one text. Reads no byte outside `texts` and `needle`. With `wide`, 32 bytes at a time where the
/// processor has AVX2 (`burrow_text_scan`); without, 16 (the tests compare both).
static inline long burrow_text_scan_using(const unsigned char *texts, size_t length, const unsigned char *needle,
                                          size_t needle_length, long columns, long *rows, long capacity, int wide) {
    if (needle_length == 0 || columns <= 0 || capacity <= 0) return 0;
    if (length == 0 || texts[length - 1] != 0xFF) return -1;
    const size_t m = needle_length;
    long found = 0, ended = 0;
    size_t i = 0;
#if defined(BURROW_TEXT_SCAN_AVX2)
    if (wide && burrow_text_scan_has_avx2() &&
        !burrow_text_scan_avx2(texts, length, needle, m, columns, rows, capacity, &i, &found, &ended))
        return -1;
#endif
#if defined(__SSE2__)
    const __m128i first = _mm_set1_epi8((char)needle[0]), last = _mm_set1_epi8((char)needle[m - 1]);
    const __m128i end = _mm_set1_epi8((char)0xFF), none = _mm_set1_epi8((char)0xFE);
    while (i + 16 + m - 1 <= length) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(texts + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(texts + i + m - 1));
        unsigned candidates = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last)));
        const unsigned ends = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, end));
        unsigned nones = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, none));
        while (nones) {
            if (!burrow_text_scan_none_alone(texts, length, i + (size_t)__builtin_ctz(nones))) return -1;
            nones &= nones - 1;
        }
        while (candidates) {
            const unsigned k = (unsigned)__builtin_ctz(candidates);
            if (burrow_text_scan_middle(texts, length, i + k, needle, m)) {
                const long before = ended + __builtin_popcount(ends & ((1u << k) - 1u));
                if (!burrow_text_scan_record(before / columns, rows, capacity, &found)) return -1;
            }
            candidates &= candidates - 1;
        }
        ended += __builtin_popcount(ends);
        i += 16;
    }
#endif
    for (; i < length; i++) {
        if (i + m <= length && texts[i] == needle[0] && memcmp(texts + i, needle, m) == 0) {
            if (!burrow_text_scan_record(ended / columns, rows, capacity, &found)) return -1;
        }
        if (texts[i] == 0xFF) ended++;
        if (texts[i] == 0xFE && !burrow_text_scan_none_alone(texts, length, i)) return -1;
    }
    return ended == capacity * columns ? found : -1;
}

static inline long burrow_text_scan(const unsigned char *texts, size_t length, const unsigned char *needle,
                                    size_t needle_length, long columns, long *rows, long capacity) {
    return burrow_text_scan_using(texts, length, needle, needle_length, columns, rows, capacity, 1);
}

/// Where each row of a chunk's `texts` ends: writes `rows` offsets (each just past the row's last 0xFF) to
/// `ends`. Returns 1 when `texts` is exactly `rows` × `columns` texts, each ended by 0xFF, with 0xFE only as a
/// whole text ("none"); 0 otherwise (damaged bytes), having read nothing outside `texts`.
static inline int burrow_text_rows(const unsigned char *texts, size_t length, long columns, long rows, long *ends) {
    if (columns <= 0 || rows <= 0) return 0;
    long ended = 0, row = 0;
    size_t start = 0;
    for (size_t i = 0; i < length; i++) {
        const unsigned char b = texts[i];
        if (b == 0xFE) {
            if (i != start || i + 1 >= length || texts[i + 1] != 0xFF) return 0;
        } else if (b == 0xFF) {
            ended++;
            start = i + 1;
            if (ended % columns == 0) {
                if (row >= rows) return 0;
                ends[row++] = (long)(i + 1);
            }
        }
    }
    return row == rows && ended == rows * columns && start == length;
}

/// The bit a pair of adjacent bytes sets in a chunk's pair filter (`burrow_pair_filter`), below `mask + 1`.
static inline unsigned burrow_pair_bit(unsigned char a, unsigned char b, unsigned mask) {
    return (((unsigned)a * 0x9E3779B1u) ^ ((unsigned)b * 0x85EBCA77u)) >> 16 & mask;
}

/// Packs `count` flags (0 or 1 bytes; a multiple of 64) into `count / 64` words, OR'd into `out`.
static inline void burrow_pack_flags(const unsigned char *flags, size_t count, unsigned long long *out) {
    for (size_t w = 0; w < count / 64; w++) {
        unsigned long long v = 0;
#if defined(__SSE2__)
        for (size_t j = 0; j < 64; j += 16) {
            const __m128i x = _mm_loadu_si128((const __m128i *)(flags + w * 64 + j));
            v |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_slli_epi16(x, 7)) << j;
        }
#else
        for (size_t j = 0; j < 64; j++) v |= (unsigned long long)flags[w * 64 + j] << j;
#endif
        out[w] |= v;
    }
}

/// Sets in `filter` (`words` 64-bit words, a power of two, at most 32) the bit of each pair of adjacent bytes
/// inside one of a chunk's `texts` (laid out as `burrow_text_scan` reads them), and in `present` (4 words)
/// the bit of each byte in them: a needle with a pair or a byte whose bit is clear is in none of them, so a
/// search can pass the chunk by (a needle of one byte has only its byte). Returns how many texts end in
/// `texts` (its 0xFF bytes), or -1 when `burrow_text_scan` would find them damaged (no 0xFF at the end, a
/// 0xFE not alone); whether that count is the chunk's rows × columns is left to the caller.
///
/// Each pair and byte sets a flag byte, packed into bits at the end: setting bits in place made every byte
/// wait for the last write to the same word (7 ns a byte, 210 ms to hold a million items' index).
static inline long burrow_pair_filter(const unsigned char *texts, size_t length, unsigned long long *filter, size_t words,
                                      unsigned long long *present) {
    if (length == 0 || texts[length - 1] != 0xFF || words == 0 || words > 32) return -1;
    unsigned char pairs[32 * 64], bytes[256];
    memset(pairs, 0, words * 64);
    memset(bytes, 0, sizeof bytes);
    const unsigned mask = (unsigned)(words * 64 - 1);
    long ended = 0;
    for (size_t i = 0; i + 1 < length; i++) {
        const unsigned char a = texts[i], b = texts[i + 1];
        if (a == 0xFF) {
            ended++;
            continue;
        }
        if (a == 0xFE) {
            if (!burrow_text_scan_none_alone(texts, length, i)) return -1;
            continue;  // no text: a column without one
        }
        bytes[a] = 1;
        if (b >= 0xFE) continue;  // a text's end: no match reaches past it
        pairs[burrow_pair_bit(a, b, mask)] = 1;
    }
    burrow_pack_flags(pairs, words * 64, filter);
    burrow_pack_flags(bytes, 256, present);
    return ended + 1;  // the last byte, 0xFF
}

#endif
