#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

namespace LockScope {

// One RESP2 reply, decoupled from hiredis so that no hiredis type leaks out of core.
class RedisValue
{
public:
    enum class Type { Nil, Status, Error, Integer, String, Array };

    RedisValue() = default;
    static RedisValue nil() { return {}; }
    static RedisValue status(QByteArray text);
    static RedisValue error(QByteArray text);
    static RedisValue integer(qint64 value);
    static RedisValue string(QByteArray bytes);
    static RedisValue array(QList<RedisValue> elements);

    Type type() const { return m_type; }
    bool isNil() const { return m_type == Type::Nil; }
    bool isError() const { return m_type == Type::Error; }
    bool isInteger() const { return m_type == Type::Integer; }
    bool isString() const { return m_type == Type::String; }
    bool isStatus() const { return m_type == Type::Status; }
    bool isArray() const { return m_type == Type::Array; }

    // Bytes of a status, error or bulk string; the decimal text of an integer.
    QByteArray bytes() const;
    // An error reply's code, its first word ("WRONGTYPE", "MOVED", "ERR"); empty for any other reply. Callers
    // branch on it, never on the text after it, which servers word differently from version to version.
    QByteArray errorCode() const;
    qint64 toInteger(bool *ok = nullptr) const;
    const QList<RedisValue> &elements() const { return m_elements; }
    int size() const { return m_elements.size(); }
    const RedisValue &at(int i) const { return m_elements.at(i); }

    // Readable rendering for logs and test failure messages; binary bytes are escaped.
    QString toDebugString() const;

    bool operator==(const RedisValue &other) const;
    bool operator!=(const RedisValue &other) const { return !(*this == other); }

private:
    Type m_type = Type::Nil;
    qint64 m_integer = 0;
    QByteArray m_bytes;
    QList<RedisValue> m_elements;
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::RedisValue)
