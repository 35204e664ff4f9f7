#define _GNU_SOURCE
#include <stdio.h>
#include <sys/vfs.h>
#include "CFileSystem.h"

int motionlog_rename_noreplace(int fromdir, const char *from, int todir, const char *to) {
    return renameat2(fromdir, from, todir, to, RENAME_NOREPLACE);
}

long long motionlog_filesystem_magic(const char *path) {
    struct statfs s;
    if (statfs(path, &s) != 0) return -1;
    return (long long)s.f_type;
}
