/* madvise and MADV_HUGEPAGE are not POSIX: ask for the system's own
 * extensions in this file only. */
#define _DEFAULT_SOURCE

#include "util/huge_pages.h"

#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void huge_pages_advise(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || bytes < HUGE_PAGES_MIN_BYTES)
        return;
    uintptr_t start = ((uintptr_t)p + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
