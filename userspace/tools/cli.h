/* SPDX-License-Identifier: MIT */
/* The compress/decompress commands of the codec tools (cli.c). */
#ifndef INC_CLI_H
#define INC_CLI_H

#include <stdio.h>

#include "inccodec.h"

void cli_usage(FILE *f, const char *prog);
/* argv[0] is the command name; returns the exit status */
int cli_compress(const char *prog, const struct inc_chunk_coder *coder,
		 int argc, char **argv);
int cli_decompress(const char *prog, const struct inc_chunk_coder *coder,
		   int argc, char **argv);

#endif
