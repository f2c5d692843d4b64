/*
 * huge_pages.h - ask the kernel to back a large array with transparent
 * huge pages.
 *
 * A pool of a million in-flight messages (tens of MiB) is visited in the
 * order messages arrive, not the order they were made, so nearly every
 * visit lands on a different 4 KiB page: the page-table walk costs as much
 * as the cache miss. With 2 MiB pages the TLB covers the whole pool.
 * Linux with transparent huge pages in "madvise" mode needs the hint; in
 * "always" mode it changes nothing, and elsewhere it compiles to nothing.
 * Memory stays proportional to what is touched: a huge page is allocated
 * when a byte of its 2 MiB is first written.
 */
#ifndef VIMANA_UTIL_HUGE_PAGES_H
#define VIMANA_UTIL_HUGE_PAGES_H

#include "util/exported_names.h"

#include <stddef.h>

/* Arrays below this size are left alone: they fit the TLB anyway. */
#define HUGE_PAGES_MIN_BYTES ((size_t)4 << 20)
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

/* Hints that the whole 2 MiB pages inside [p, p + bytes) may be huge.
 * Advice only: a failure (no THP, an old kernel) changes nothing. Call it
 * right after (re)allocating, before the new part is written. */
void huge_pages_advise(void *p, size_t bytes);

#endif
