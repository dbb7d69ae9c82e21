/* A small C program with warnings and two errors, for the captured gcc log
 * budget/view/testdata/gcc-warnings.txt (see testdata/gen/capture.sh). */
#include <stdio.h>
#include <string.h>

static int unused_helper(int x) { return x * 2; }

int count_words(const char *s) {
	int n = 0, i, in = 0;
	for (i = 0; i < strlen(s); i++) {
		if (s[i] == ' ') {
			in = 0;
		} else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}

int main(int argc, char **argv) {
	int total;
	char buf[8];
	if (argc > 1)
		sprintf(buf, "%s", argv[1]);
	printf("%d\n", count_words(buf));
	printf("%d\n", total);
	undefined_call(buf);
	return missing_value
}
