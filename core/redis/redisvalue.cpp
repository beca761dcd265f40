#include "redis/redisvalue.h"

#include "redis/bytesformat.h"

namespace LockScope {

RedisValue RedisValue::status(QByteArray text)
{
    RedisValue v;
    v.m_type = Type::Status;
    v.m_bytes = std::move(text);
    return v;
}

RedisValue RedisValue::error(QByteArray text)
{
    RedisValue v;
    v.m_type = Type::Error;
    v.m_bytes = std::move(text);
    return v;
}

RedisValue RedisValue::integer(qint64 value)
{
    RedisValue v;
    v.m_type = Type::Integer;
    v.m_integer = value;
    return v;
}

RedisValue RedisValue::string(QByteArray bytes)
{
    RedisValue v;
    v.m_type = Type::String;
    v.m_bytes = std::move(bytes);
    return v;
}

RedisValue RedisValue::array(QList<RedisValue> elements)
{
    RedisValue v;
    v.m_type = Type::Array;
    v.m_elements = std::move(elements);
    return v;
}

QByteArray RedisValue::bytes() const
{
    if (m_type == Type::Integer)
        return QByteArray::number(m_integer);
    return m_bytes;
}

QByteArray RedisValue::errorCode() const
{
    if (m_type != Type::Error)
        return {};
    const int space = m_bytes.indexOf(' ');
    return space < 0 ? m_bytes : m_bytes.left(space);
}

qint64 RedisValue::toInteger(bool *ok) const
{
    if (m_type == Type::Integer) {
        if (ok)
            *ok = true;
        return m_integer;
    }
    if (m_type == Type::String || m_type == Type::Status)
        return m_bytes.toLongLong(ok);
    if (ok)
        *ok = false;
    return 0;
}

QString RedisValue::toDebugString() const
{
    switch (m_type) {
    case Type::Nil:
        return QStringLiteral("(nil)");
    case Type::Status:
        return QString::fromLatin1(m_bytes);
    case Type::Error:
        return QStringLiteral("(error) ") + QString::fromUtf8(m_bytes);
    case Type::Integer:
        return QStringLiteral("(integer) ") + QString::number(m_integer);
    case Type::String:
        return QLatin1Char('"') + escapeBytes(m_bytes) + QLatin1Char('"');
    case Type::Array: {
        QStringList parts;
        for (const auto &e : m_elements)
            parts << e.toDebugString();
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    }
    return {};
}

bool RedisValue::operator==(const RedisValue &other) const
{
    return m_type == other.m_type && m_integer == other.m_integer && m_bytes == other.m_bytes
        && m_elements == other.m_elements;
}

} // namespace LockScope
