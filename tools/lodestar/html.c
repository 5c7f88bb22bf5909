/* SPDX-License-Identifier: MIT */
/*
** html.c — self-contained HTML pages of the `lodestar` command (trace,
** demo --html): a template with its data inlined as JSON, no network.
*/
#include "util.h"

#include <errno.h>
#include <string.h>

void cli_html_string(FILE *f, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  fputc('"', f);
  for (; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
      fprintf(f, "\\u%04x", *p);
    else if (*p >= 0x80)
      fputs("\\ufffd", f);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

/* Writes line with the first "@TITLE@" replaced by title (HTML text) and
** the first "@DATA@" by data's output. */
static void put_line(FILE *f, const char *line, const char *title, void (*data)(FILE *f, void *ud),
                     void *ud) {
  const char *t = strstr(line, "@TITLE@"), *d = strstr(line, "@DATA@");
  if (t) {
    const unsigned char *p;
    fwrite(line, 1, (size_t)(t - line), f);
    for (p = (const unsigned char *)title; *p; p++) {
      if (*p == '<') fputs("&lt;", f);
      else if (*p == '>') fputs("&gt;", f);
      else if (*p == '&') fputs("&amp;", f);
      else fputc(*p, f);
    }
    fputs(t + 7, f);
  } else if (d) {
    fwrite(line, 1, (size_t)(d - line), f);
    data(f, ud);
    fputs(d + 6, f);
  } else {
    fputs(line, f);
  }
}

bool cli_html_write(const char *cmd, const char *file, const char *const *page, const char *title,
                    void (*data)(FILE *f, void *ud), void *ud) {
  FILE *f = fopen(file, "wb");
  bool ok;
  if (!f) {
    cli_fail(cmd, "--html: cannot write %s (%s)", file, strerror(errno));
    return false;
  }
  for (; *page; page++) put_line(f, *page, title, data, ud);
  ok = !ferror(f);
  if (fclose(f) != 0) ok = false;
  if (!ok) cli_fail(cmd, "--html: cannot write %s (write error)", file);
  return ok;
}
