/* leak.c: a small C program with memory errors for valgrind's memcheck
 * (testdata/captured/valgrind-memcheck-leak.txt, see testdata/gen/capture.sh):
 * 120 allocators whose blocks are kept (still reachable), kept by an
 * interior pointer (possibly lost) or dropped (definitely lost), a linked
 * list whose nodes are dropped with their names (indirectly lost), an
 * off-by-one strcpy (invalid write), a read past an array (invalid read),
 * an uninitialised flag (conditional jump) and a double free. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct node { char *name; int size; struct node *next; };

static struct node *cache_head;

#define LEAKER(n) __attribute__((noinline)) char *make_buffer_##n(int k) { char *p = malloc(16 * (n + 1) + k); memset(p, 'a', 8); return p; }
LEAKER(1) LEAKER(2) LEAKER(3) LEAKER(4) LEAKER(5) LEAKER(6) LEAKER(7) LEAKER(8) LEAKER(9) LEAKER(10)
LEAKER(11) LEAKER(12) LEAKER(13) LEAKER(14) LEAKER(15) LEAKER(16) LEAKER(17) LEAKER(18) LEAKER(19) LEAKER(20)
LEAKER(21) LEAKER(22) LEAKER(23) LEAKER(24) LEAKER(25) LEAKER(26) LEAKER(27) LEAKER(28) LEAKER(29) LEAKER(30)
LEAKER(31) LEAKER(32) LEAKER(33) LEAKER(34) LEAKER(35) LEAKER(36) LEAKER(37) LEAKER(38) LEAKER(39) LEAKER(40)
LEAKER(41) LEAKER(42) LEAKER(43) LEAKER(44) LEAKER(45) LEAKER(46) LEAKER(47) LEAKER(48) LEAKER(49) LEAKER(50)
LEAKER(51) LEAKER(52) LEAKER(53) LEAKER(54) LEAKER(55) LEAKER(56) LEAKER(57) LEAKER(58) LEAKER(59) LEAKER(60)
LEAKER(61) LEAKER(62) LEAKER(63) LEAKER(64) LEAKER(65) LEAKER(66) LEAKER(67) LEAKER(68) LEAKER(69) LEAKER(70)
LEAKER(71) LEAKER(72) LEAKER(73) LEAKER(74) LEAKER(75) LEAKER(76) LEAKER(77) LEAKER(78) LEAKER(79) LEAKER(80)
LEAKER(81) LEAKER(82) LEAKER(83) LEAKER(84) LEAKER(85) LEAKER(86) LEAKER(87) LEAKER(88) LEAKER(89) LEAKER(90)
LEAKER(91) LEAKER(92) LEAKER(93) LEAKER(94) LEAKER(95) LEAKER(96) LEAKER(97) LEAKER(98) LEAKER(99) LEAKER(100)
LEAKER(101) LEAKER(102) LEAKER(103) LEAKER(104) LEAKER(105) LEAKER(106) LEAKER(107) LEAKER(108) LEAKER(109) LEAKER(110)
LEAKER(111) LEAKER(112) LEAKER(113) LEAKER(114) LEAKER(115) LEAKER(116) LEAKER(117) LEAKER(118) LEAKER(119) LEAKER(120)

__attribute__((noinline)) struct node *cache_insert(const char *name, int size) {
  struct node *n = malloc(sizeof *n);
  n->name = strdup(name);
  n->size = size;
  n->next = cache_head;
  cache_head = n;
  return n;
}

__attribute__((noinline)) void parse_header(const char *src) {
  char *copy = malloc(strlen(src));      /* off by one: no room for the NUL */
  strcpy(copy, src);                      /* invalid write of size 1 */
  if (copy[0] == 'X') puts("x");
  free(copy);
}

__attribute__((noinline)) int checksum(int *v, int n) {
  int s = 0;
  for (int i = 0; i <= n; i++) s += v[i];  /* invalid read past the end */
  return s;
}

__attribute__((noinline)) void use_uninit(void) {
  int flags[4];
  flags[0] = 1;
  if (flags[2] > 0) puts("flag");         /* conditional jump on uninitialised value */
}

__attribute__((noinline)) void double_free(void) {
  char *p = malloc(40);
  free(p);
  free(p);
}

__attribute__((noinline)) void session_table(int rounds) {
  for (int i = 0; i < rounds; i++) {
    char name[32];
    snprintf(name, sizeof name, "session-%03d", i);
    struct node *n = cache_insert(name, i * 10);
    if (i % 3 == 0) { cache_head = n->next; }   /* drop the only pointer: definite leak of n */
  }
}

int main(void) {
  char *(*makers[])(int) = { make_buffer_1, make_buffer_2, make_buffer_3, make_buffer_4, make_buffer_5, make_buffer_6, make_buffer_7, make_buffer_8, make_buffer_9, make_buffer_10, make_buffer_11, make_buffer_12, make_buffer_13, make_buffer_14, make_buffer_15, make_buffer_16, make_buffer_17, make_buffer_18, make_buffer_19, make_buffer_20, make_buffer_21, make_buffer_22, make_buffer_23, make_buffer_24, make_buffer_25, make_buffer_26, make_buffer_27, make_buffer_28, make_buffer_29, make_buffer_30, make_buffer_31, make_buffer_32, make_buffer_33, make_buffer_34, make_buffer_35, make_buffer_36, make_buffer_37, make_buffer_38, make_buffer_39, make_buffer_40, make_buffer_41, make_buffer_42, make_buffer_43, make_buffer_44, make_buffer_45, make_buffer_46, make_buffer_47, make_buffer_48, make_buffer_49, make_buffer_50, make_buffer_51, make_buffer_52, make_buffer_53, make_buffer_54, make_buffer_55, make_buffer_56, make_buffer_57, make_buffer_58, make_buffer_59, make_buffer_60, make_buffer_61, make_buffer_62, make_buffer_63, make_buffer_64, make_buffer_65, make_buffer_66, make_buffer_67, make_buffer_68, make_buffer_69, make_buffer_70, make_buffer_71, make_buffer_72, make_buffer_73, make_buffer_74, make_buffer_75, make_buffer_76, make_buffer_77, make_buffer_78, make_buffer_79, make_buffer_80, make_buffer_81, make_buffer_82, make_buffer_83, make_buffer_84, make_buffer_85, make_buffer_86, make_buffer_87, make_buffer_88, make_buffer_89, make_buffer_90, make_buffer_91, make_buffer_92, make_buffer_93, make_buffer_94, make_buffer_95, make_buffer_96, make_buffer_97, make_buffer_98, make_buffer_99, make_buffer_100, make_buffer_101, make_buffer_102, make_buffer_103, make_buffer_104, make_buffer_105, make_buffer_106, make_buffer_107, make_buffer_108, make_buffer_109, make_buffer_110, make_buffer_111, make_buffer_112, make_buffer_113, make_buffer_114, make_buffer_115, make_buffer_116, make_buffer_117, make_buffer_118, make_buffer_119, make_buffer_120 };
  static char *keep[120];
  for (int i = 0; i < 120; i++) {
    char *p = makers[i](i);
    if (i % 4 == 0) keep[i] = p;              /* still reachable */
    else if (i % 4 == 1) keep[i] = p + 4;     /* possibly lost: interior pointer */
  }
  session_table(40);
  for (int i = 0; i < 5; i++) parse_header("Content-Type: text/plain");
  int *v = malloc(8 * sizeof *v);
  for (int i = 0; i < 8; i++) v[i] = i;
  printf("%d\n", checksum(v, 8));
  free(v);
  use_uninit();
  double_free();
  return 0;
}
