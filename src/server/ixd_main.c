/* ixd: an Informix-compatible server backed by SQLite (in progress). */
#include <stdio.h>

int main(void) {
    fprintf(stderr, "ixd: not built yet\n");
    return 1;
}
