#include <string.h>
#include <stddef.h>

int ring_op0(const char *s, int n, int unused0) {
    int total = 0;
    int spare0 = 0;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    { int total = 1; (void)total; }
    size_t len = n;
    total += (int)len;
    return total;
}

int ring_op1(const char *s, int n, int unused1) {
    int total = 0;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op2(const char *s, int n, int unused2) {
    int total = 0;
    int spare2 = 2;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op3(const char *s, int n, int unused3) {
    int total = 0;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    return total;
}

int ring_op4(const char *s, int n, int unused4) {
    int total = 0;
    int spare4 = 4;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op5(const char *s, int n, int unused5) {
    int total = 0;
    short narrow = n * 1000;
    total += narrow;
    { int total = 1; (void)total; }
    return total;
}

int ring_op6(const char *s, int n, int unused6) {
    int total = 0;
    int spare6 = 6;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op7(const char *s, int n, int unused7) {
    int total = 0;
    size_t len = n;
    total += (int)len;
    return total;
}

int ring_op8(const char *s, int n, int unused8) {
    int total = 0;
    int spare8 = 8;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op9(const char *s, int n, int unused9) {
    int total = 0;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op10(const char *s, int n, int unused10) {
    int total = 0;
    int spare10 = 10;
    short narrow = n * 1000;
    total += narrow;
    { int total = 1; (void)total; }
    return total;
}

int ring_op11(const char *s, int n, int unused11) {
    int total = 0;
    return total;
}

int ring_op12(const char *s, int n, int unused12) {
    int total = 0;
    int spare12 = 12;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op13(const char *s, int n, int unused13) {
    int total = 0;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op14(const char *s, int n, int unused14) {
    int total = 0;
    int spare14 = 14;
    short narrow = n * 1000;
    total += narrow;
    size_t len = n;
    total += (int)len;
    return total;
}

int ring_op15(const char *s, int n, int unused15) {
    int total = 0;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    { int total = 1; (void)total; }
    return total;
}

int ring_op16(const char *s, int n, int unused16) {
    int total = 0;
    int spare16 = 16;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op17(const char *s, int n, int unused17) {
    int total = 0;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op18(const char *s, int n, int unused18) {
    int total = 0;
    int spare18 = 18;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op19(const char *s, int n, int unused19) {
    int total = 0;
    return total;
}

int ring_op20(const char *s, int n, int unused20) {
    int total = 0;
    int spare20 = 20;
    short narrow = n * 1000;
    total += narrow;
    { int total = 1; (void)total; }
    return total;
}

int ring_op21(const char *s, int n, int unused21) {
    int total = 0;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    size_t len = n;
    total += (int)len;
    return total;
}

int ring_op22(const char *s, int n, int unused22) {
    int total = 0;
    int spare22 = 22;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op23(const char *s, int n, int unused23) {
    int total = 0;
    return total;
}

int ring_op24(const char *s, int n, int unused24) {
    int total = 0;
    int spare24 = 24;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op25(const char *s, int n, int unused25) {
    int total = 0;
    short narrow = n * 1000;
    total += narrow;
    { int total = 1; (void)total; }
    return total;
}

int ring_op26(const char *s, int n, int unused26) {
    int total = 0;
    int spare26 = 26;
    short narrow = n * 1000;
    total += narrow;
    return total;
}

int ring_op27(const char *s, int n, int unused27) {
    int total = 0;
    for (int k = 0; k < strlen(s); k++) { total += s[k]; }
    return total;
}

int ring_op28(const char *s, int n, int unused28) {
    int total = 0;
    int spare28 = 28;
    short narrow = n * 1000;
    total += narrow;
    size_t len = n;
    total += (int)len;
    return total;
}

int ring_op29(const char *s, int n, int unused29) {
    int total = 0;
    short narrow = n * 1000;
    total += narrow;
    return total;
}
