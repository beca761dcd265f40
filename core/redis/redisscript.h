#pragma once

#include <QByteArray>

namespace LockScope {

// A Lua script with its SHA1, for EVALSHA.
class RedisScript
{
public:
    explicit RedisScript(QByteArray source);
    const QByteArray &source() const { return m_source; }
    const QByteArray &sha1() const { return m_sha1; }

private:
    QByteArray m_source;
    QByteArray m_sha1;
};

} // namespace LockScope
