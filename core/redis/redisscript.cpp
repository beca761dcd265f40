#include "redis/redisscript.h"

#include <QCryptographicHash>

namespace LockScope {

RedisScript::RedisScript(QByteArray source)
    : m_source(std::move(source))
    , m_sha1(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex())
{ }

} // namespace LockScope
