/*
 * Preloaded into `bioauth serve` when it runs under valgrind (scripts/bench, for the instruction
 * count). Valgrind 3.19 writes into the signal mask a program passes to sigsuspend; libdispatch's
 * is read-only, and valgrind crashes as the Swift program's main thread parks. This passes a copy.
 * Build: cc -shared -fPIC -o valgrind-sigsuspend.so valgrind-sigsuspend.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>

int sigsuspend(const sigset_t *mask) {
    static int (*next)(const sigset_t *);
    if (!next) next = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
    sigset_t copy = *mask;
    return next(&copy);
}
