#pragma once

#include "kinds/semaphore/counterlayout.h"

namespace LockScope {

// Redisson's RCountDownLatch: the string N holds the count left. Each countDown decrements it; at zero the key is
// deleted and "0" published on redisson_countdownlatch__channel__{N}, which wakes every waiter; trySetCount publishes
// "1". Told from a semaphore by its listeners, when someone waits on the latch's channel and nobody on the
// semaphore's.
class CountDownLatchLayout : public CounterLayout
{
public:
    LockInfo::Kind kind() const override { return LockInfo::Kind::CountDownLatch; }
    const char *id() const override { return "count-down-latch"; }
    const char *label() const override { return QT_TRANSLATE_NOOP("LockScope::LockTableModel", "count-down latch"); }
    LockCapabilities capabilities() const override;
    bool allows(LockAction action) const override { return action == LockAction::OpenLatch; }
    const char *counterField() const override { return "count"; }
    QString counterText(qint64 value) const override;
    QByteArray releaseChannel(const QByteArray &name) const override { return channel(name); }
    // Its waiters' channel names it: a latch someone awaits is found without a declared pattern.
    QList<QByteArray> vouchingChannelPatterns() const override
    {
        return { QByteArrayLiteral("redisson_countdownlatch__channel__*") };
    }
    QList<QByteArray> namesFromChannel(const QByteArray &channel) const override;
    std::optional<CounterCall> counterCall(const CounterRequest &request, const QByteArray &publish) const override;
    void readStringAux(AuxReader &reader) const override;
    bool classifyKey(const KeySnapshot &key, LockInfo &info) const override;

    // redisson_countdownlatch__channel__{N}: braces always, whatever N holds (the one Redisson name not built by
    // prefixName).
    static QByteArray channel(const QByteArray &name);
    // Opens it as its last countDown would: deleted while it still holds countShown (empty: whatever it holds), and
    // "0" published, which wakes every waiter.
    static ScriptCall open(const QByteArray &name, const QByteArray &countShown, const QByteArray &publish);
};

} // namespace LockScope
