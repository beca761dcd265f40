#pragma once

#include "kinds/sortedset/sortedsetlayout.h"

namespace LockScope {

// redis-semaphore's Semaphore and MultiSemaphore (npm): a sorted set semaphore:<name> whose members are the permits
// taken (a random UUID, "<uuid>_<i>" for each of a MultiSemaphore's), scored by when each was taken or last refreshed
// (docs/protocol/libraries.md#redis-semaphore). The limit is each client's own setting and is not kept in Redis.
class PermitSetLayout : public SortedSetLayout
{
public:
    LockInfo::Kind kind() const override { return LockInfo::Kind::PermitSet; }
    const char *id() const override { return "permit-set"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "semaphore (zset)"); }
    const char *library() const override { return "redis-semaphore"; }
    const char *counterField() const override { return "permits_taken"; }
    QString counterText(qint64 value) const override;
    // The permits taken are the count itself: said once.
    QString counterSummary(const LockInfo &info) const override { return counterText(info.counter); }
    QList<QByteArray> defaultPatterns() const override { return { "semaphore:*" }; }
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;

    // The library's default lockTimeout: a permit not refreshed for longer is dropped by the next acquire.
    static constexpr qint64 kLockTimeoutMs = 10000;
    // "<uuid v4>", "<uuid v4>_<decimal>" (a MultiSemaphore's) or "<uuid v4>-<suffix>" (identifierSuffix).
    static bool memberFits(const QByteArray &member);
};

} // namespace LockScope
