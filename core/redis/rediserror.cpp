#include "redis/rediserror.h"

#include "redis/redisvalue.h"

namespace LockScope {

RedisError RedisError::fromReply(const RedisValue &reply)
{
    const QByteArray text = reply.bytes();
    const QString message = QString::fromUtf8(text);
    const QByteArray code = text.left(text.indexOf(' ')); // the whole text when it is one word
    if (text.startsWith("NOPERM"))
        return { Kind::Permission, message, code };
    if (text.startsWith("NOAUTH") || text.startsWith("WRONGPASS") || text.startsWith("ERR invalid password")
        || text.startsWith("ERR AUTH") || text.startsWith("ERR Client sent AUTH"))
        return { Kind::Auth, message, code };
    return { Kind::Reply, message, code };
}

QString RedisError::kindName(Kind kind)
{
    switch (kind) {
    case Kind::None:
        return QStringLiteral("none");
    case Kind::Io:
        return QStringLiteral("io");
    case Kind::Timeout:
        return QStringLiteral("timeout");
    case Kind::Reply:
        return QStringLiteral("reply");
    case Kind::Protocol:
        return QStringLiteral("protocol");
    case Kind::Auth:
        return QStringLiteral("auth");
    case Kind::Permission:
        return QStringLiteral("permission");
    case Kind::ReadOnly:
        return QStringLiteral("read-only");
    case Kind::InvalidArgument:
        return QStringLiteral("invalid-argument");
    case Kind::NotSynced:
        return QStringLiteral("not-synced");
    case Kind::KindMismatch:
        return QStringLiteral("kind-mismatch");
    }
    return {};
}

QString RedisError::toString() const
{
    if (!isError())
        return {};
    return kindName(m_kind) + QStringLiteral(": ") + m_message;
}

} // namespace LockScope
