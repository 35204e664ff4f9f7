// Linux file-system calls that Swift's Glibc module does not import (they need _GNU_SOURCE
// or <sys/vfs.h>): rename without replacing, and the file system's type.
#ifndef MOTIONLOG_CFILESYSTEM_H
#define MOTIONLOG_CFILESYSTEM_H

/// renameat2(..., RENAME_NOREPLACE): -1 with errno EEXIST when `to` exists, EINVAL where the
/// file system cannot do it.
int motionlog_rename_noreplace(int fromdir, const char *from, int todir, const char *to);

/// statfs(2)'s f_type for `path`, or -1 with errno set.
long long motionlog_filesystem_magic(const char *path);

#endif
