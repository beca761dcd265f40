#pragma once

#include <QByteArray>

namespace LockScope::LockNames {

// Redisson's two naming rules (docs/protocol/README.md#key-naming-and-hash-tags). Both test only for '{': a name
// such as "a{b" keeps its aux keys outside its own cluster slot, exactly as Java does.
QByteArray prefixName(const QByteArray &prefix, const QByteArray &name);
QByteArray suffixName(const QByteArray &name, const QByteArray &suffix);

QByteArray lockChannel(const QByteArray &name); // redisson_lock__channel:{N}
QByteArray fencingToken(const QByteArray &name); // redisson_lock_token:{N}
QByteArray rwChannel(const QByteArray &name); // redisson_rwlock:{N}
QByteArray fairQueue(const QByteArray &name); // redisson_lock_queue:{N}
QByteArray fairTimeouts(const QByteArray &name); // redisson_lock_timeout:{N}
QByteArray fairChannel(const QByteArray &name, const QByteArray &owner); // redisson_lock__channel:{N}:<owner>
// {N}:<readerField>:rwlock_timeout, to which ":<k>" is added for read hold number k.
QByteArray rwTimeoutPrefix(const QByteArray &name, const QByteArray &readerField);
QByteArray rwKeyPrefix(const QByteArray &name); // {N}, or N when it has braces
QByteArray unlockLatch(const QByteArray &name, const QByteArray &requestId); // redisson_unlock_latch:{N}:<id>

// 32 lowercase hex characters from 16 random bytes, one per unlock() call.
QByteArray newRequestId();
// A random version 4 UUID in lowercase, as java.util.UUID.randomUUID().toString().
QByteArray newClientId();

// "<uuid>:<token>" splits at the first ':' after the 36-character client id; false when it is not of that shape.
bool splitOwner(const QByteArray &owner, QByteArray *clientId, QByteArray *token);

} // namespace LockScope::LockNames
