/*
 * text-file.h: an input file read whole, with the limits every reader
 * shares, and its lines.
 */
#ifndef MPSIM_LIB_TEXT_FILE_H
#define MPSIM_LIB_TEXT_FILE_H

#include <stddef.h>

/*
 * Reads the file at path whole into *text (allocated, NUL after the
 * end; *len bytes): it must be a regular file of at most max bytes
 * (what names the kind in messages: "scenario file").  Anything else is
 * bad input, -EINVAL with err = "PATH: why": missing or unreadable, a
 * directory, a FIFO, device or socket (opened without blocking, never
 * read), larger than max, or holding NUL bytes (a text file has none).
 */
int read_text_file(const char *path, size_t max, const char *what,
		   char **text, size_t *len, char *err);

/* Who hears of each file read_text_file() has read, whole and checked
 * (what, path and its text), NULL none: inputs.c while it records a
 * sweep's inputs.  The reader knows nothing of why. */
typedef void text_file_reader_fn(const char *what, const char *path,
				 const char *text, size_t len);
void read_text_file_tell(text_file_reader_fn *fn);

/* The next line of the text at *p, without its newline, copied into
 * *buf (grown as needed; *cap its size) and ended by a NUL; *p moves past
 * the line and its newline.  NULL at the end of the text. */
char *next_line(const char **p, char **buf, size_t *cap);

#endif
