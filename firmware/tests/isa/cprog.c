// SPDX-License-Identifier: MIT
/*
 * A freestanding C program for the management core, built like the
 * firmware will be (clang --target=riscv32 -march=rv32im -O2, crt0.S,
 * link.ld): code the compiler writes (jump tables in .rodata, calls and
 * the stack, 64-bit arithmetic from 32-bit instructions, divisions by
 * constants as MULHU, .data and a zeroed .bss). main returns 0, or the
 * number of the first check that failed.
 */
#include <stdint.h>

// .data, .bss
static int32_t values[8] = { 0x7fffffff, -5, 123456789, (int32_t)0x80000000, 0, 42, -42, 17 };
static const int32_t sorted[8] = { (int32_t)0x80000000, -42, -5, 0, 17, 42, 123456789, 0x7fffffff };
static volatile uint32_t zeros[64];

// a CRC-32 (IEEE, reflected) without a table
static uint32_t crc32(const char *s)
{
	uint32_t c = 0xffffffffu;

	while (*s) {
		c ^= (uint8_t)*s++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// a switch the compiler may turn into a table in .rodata
static int __attribute__((noinline)) classify(int x)
{
	switch (x) {
	case 0: return 11;
	case 1: return 23;
	case 2: return 37;
	case 3: return 41;
	case 4: return 59;
	case 5: return 61;
	case 6: return 73;
	default: return -1;
	}
}

static void sort(int32_t *a, int n)
{
	for (int i = 1; i < n; i++) {
		int32_t v = a[i];
		int j = i - 1;

		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}

// values the compiler cannot fold
static volatile uint32_t vol_u = 1000000007u;
static volatile int32_t vol_s = -1000000007;
static volatile uint64_t vol_x = 0x123456789abcdef1ull, vol_y = 0xfedcba9876543211ull;

int main(void)
{
	if (crc32("The quick brown fox jumps over the lazy dog") != 0x414fa339u)
		return 1;
	if (fib(12) != 144)
		return 2;
	sort(values, 8);
	for (int i = 0; i < 8; i++)
		if (values[i] != sorted[i])
			return 3;
	for (int i = 0; i < 64; i++)
		if (zeros[i] != 0)
			return 4;
	static const int want[8] = { 11, 23, 37, 41, 59, 61, 73, -1 };
	for (int i = 0; i < 8; i++)
		if (classify(i) != want[i])
			return 5;
	if (vol_x * vol_y != 0x347e9a0f6729e001ull)
		return 6;
	uint32_t u = vol_u;
	if (u / 10 != 100000000u || u % 10 != 7)	// constants: MULHU
		return 7;
	int32_t sv = vol_s;
	if (sv / 7 != -142857143 || sv % 7 != -6)	// constants: MULH
		return 8;
	if (sv / (int32_t)(u & 0xff) != -1000000007 / 7)	// u & 0xff == 7: DIV
		return 9;
	return 0;
}
