#pragma once

#include "kinds/sortedset/sortedsetlayout.h"

namespace LockScope {

// Symfony Lock's RedisStore (5.2 and later): a sorted set at the lock's own name whose members are the holders'
// tokens (base64 of 32 random bytes), scored by when each hold expires, plus the member "__write__" while the hold is
// exclusive; several tokens without it are shared (read) holds (docs/protocol/libraries.md#symfony). Its names carry
// no fixed prefix: they are declared (--layout-pattern symfony=GLOB).
class TokenSetLayout : public SortedSetLayout
{
public:
    LockInfo::Kind kind() const override { return LockInfo::Kind::TokenSet; }
    const char *id() const override { return "token-set"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "lock (zset)"); }
    const char *library() const override { return "symfony"; }
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;

    static bool memberFits(const QByteArray &member);
};

} // namespace LockScope
