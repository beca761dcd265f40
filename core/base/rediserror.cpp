#include "base/rediserror.h"

namespace LockScope {

RedisError RedisError::fromReply(const QByteArray &text, const QByteArray &code)
{
    const QString message = QString::fromUtf8(text);
    if (code == "NOPERM")
        return { Kind::Permission, message, code };
    if (code == "NOAUTH" || code == "WRONGPASS")
        return { Kind::Auth, message, code };
    // Before Redis 6 a refused password has no code of its own: a plain ERR whose text is the only sign, as it is for
    // a full server ("ERR max number of clients reached", which may answer AUTH too and passes). This is the one
    // place that reads an error's text; everything else branches on kind() and code().
    if (text.startsWith("ERR invalid password") || text.startsWith("ERR AUTH")
        || text.startsWith("ERR Client sent AUTH"))
        return { Kind::Auth, message, code };
    return { Kind::Reply, message, code };
}

bool RedisError::isOutOfRangeDatabase() const
{
    // "ERR DB index is out of range" (every version): coded only ERR, like a full server's refusal, which passes.
    return m_code == "ERR" && m_message.contains(QLatin1String("out of range"));
}

bool RedisError::isFinal() const
{
    return m_code == "SSH_HOSTKEY_UNKNOWN" || m_code == "SSH_HOSTKEY_CHANGED" || m_code == "SSH_AUTH"
        || m_code == "SSH_KEY";
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
