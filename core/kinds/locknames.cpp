#include "kinds/locknames.h"

#include <QRandomGenerator>
#include <QUuid>

namespace LockScope::LockNames {

QByteArray prefixName(const QByteArray &prefix, const QByteArray &name)
{
    if (name.contains('{'))
        return prefix + ':' + name;
    return prefix + ":{" + name + '}';
}

QByteArray suffixName(const QByteArray &name, const QByteArray &suffix)
{
    if (name.contains('{'))
        return name + ':' + suffix;
    return '{' + name + "}:" + suffix;
}

QByteArray lockChannel(const QByteArray &name)
{
    return prefixName("redisson_lock__channel", name);
}

QByteArray fencingToken(const QByteArray &name)
{
    return prefixName("redisson_lock_token", name);
}

QByteArray rwChannel(const QByteArray &name)
{
    return prefixName("redisson_rwlock", name);
}

QByteArray fairQueue(const QByteArray &name)
{
    return prefixName("redisson_lock_queue", name);
}

QByteArray fairTimeouts(const QByteArray &name)
{
    return prefixName("redisson_lock_timeout", name);
}

QByteArray fairChannel(const QByteArray &name, const QByteArray &owner)
{
    return lockChannel(name) + ':' + owner;
}

QByteArray rwTimeoutPrefix(const QByteArray &name, const QByteArray &readerField)
{
    return suffixName(name, readerField + ":rwlock_timeout");
}

QByteArray rwKeyPrefix(const QByteArray &name)
{
    return name.contains('{') ? name : '{' + name + '}';
}

QByteArray unlockLatch(const QByteArray &name, const QByteArray &requestId)
{
    return prefixName("redisson_unlock_latch", name) + ':' + requestId;
}

QByteArray newRequestId()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof(words)).toHex();
}

QByteArray newClientId()
{
    return QUuid::createUuid().toByteArray(QUuid::WithoutBraces).toLower();
}

bool splitOwner(const QByteArray &owner, QByteArray *clientId, QByteArray *token)
{
    if (owner.size() < 38 || owner.at(36) != ':')
        return false;
    const QByteArray uuid = owner.left(36);
    for (int i = 0; i < 36; ++i) {
        const char c = uuid.at(i);
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    if (clientId)
        *clientId = uuid;
    if (token)
        *token = owner.mid(37);
    return true;
}

} // namespace LockScope::LockNames
