/*
 * md-align.h: Markdown tables with their columns lined up, for a
 * terminal: the same table, padded with spaces.
 */
#ifndef MPSIM_MD_ALIGN_H
#define MPSIM_MD_ALIGN_H

#include <stddef.h>

/*
 * Pads every Markdown table of text[0..len) (a header line that starts
 * with '|', a separator line of '-' and ':' cells, then its rows) so that
 * each column's cells have one width: numbers under a "--:" separator to
 * the right, other cells to the left, the separator's dashes to the
 * width.  A width counts characters, not bytes (UTF-8: µs is two).  The
 * rest of text is kept as it is.  Returns the new text (malloc'd; free
 * it), its length in *out_len.
 */
char *md_align(const char *text, size_t len, size_t *out_len);

#endif
