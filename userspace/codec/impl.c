// SPDX-License-Identifier: MIT
/*
 * Run-time choice among the implementations: the fastest one this CPU can
 * run, unless INC_CODEC_IMPL (for the process) or inc_impl_select() (for
 * the calling thread) says otherwise.
 */
#include <pthread.h>
#include <stdlib.h>

#include "codec_internal.h"

/* Slowest first. */
static const struct inc_impl *const all_impls[] = {
	&inc_scalar_impl,
	&inc_avx2_impl,
	&inc_avx512_impl,
};
#define N_IMPLS (sizeof(all_impls) / sizeof(all_impls[0]))

static const struct inc_impl *best, *process_default;
/* inc_impl_select() applies to the calling thread only */
static _Thread_local const struct inc_impl *thread_choice;
static const char *usable_names[N_IMPLS + 1];
static pthread_once_t impl_once = PTHREAD_ONCE_INIT;

static const struct inc_impl *find(const char *name)
{
	size_t i;

	if (!strcmp(name, "auto"))
		return best;
	for (i = 0; i < N_IMPLS; i++)
		if (!strcmp(all_impls[i]->name, name))
			return all_impls[i]->usable() ? all_impls[i] : NULL;
	return NULL;
}

static void impl_init(void)
{
	const char *env = getenv("INC_CODEC_IMPL");
	size_t i, n = 0;

	for (i = 0; i < N_IMPLS; i++) {
		if (all_impls[i]->usable()) {
			best = all_impls[i];
			usable_names[n++] = all_impls[i]->name;
		}
	}
	process_default = best;
	if (env && *env && find(env))
		process_default = find(env);
}

const struct inc_impl *inc_impl_current(void)
{
	if (thread_choice)
		return thread_choice;
	pthread_once(&impl_once, impl_init);
	return process_default;
}

const char *inc_impl_name(void)
{
	return inc_impl_current()->name;
}

int inc_impl_select(const char *name)
{
	const struct inc_impl *im;

	pthread_once(&impl_once, impl_init);
	if (!name)
		return -INC_EINVAL;
	im = find(name);
	if (!im)
		return -INC_EUNSUPP;
	thread_choice = im;
	return 0;
}

const char *const *inc_impl_list(void)
{
	pthread_once(&impl_once, impl_init);
	return usable_names;
}
