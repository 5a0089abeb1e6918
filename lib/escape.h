/*
 * escape.h: text as a JSON string literal or a CSV field, the one quoting
 * of every output (results, sweep files, the decision trace).
 */
#ifndef MPSIM_LIB_ESCAPE_H
#define MPSIM_LIB_ESCAPE_H

#include <stdio.h>

/* Write s as a JSON string literal (quotes, escapes). */
void json_string(FILE *f, const char *s);
/* Write s as a CSV field: quoted when it holds a comma, a quote or a
 * line break. */
void csv_field(FILE *f, const char *s);

#endif
