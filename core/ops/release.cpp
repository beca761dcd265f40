#include "ops/release.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/inspect.h"
#include "ops/releaseasfound.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QPointer>

#include <memory>

namespace LockScope {

namespace Ops {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Ops", text);
}

// The sentence both front-ends print for a release that went through.
QString releasedSummary(const ReleaseDone &d, const QByteArray &name, const QByteArray &owner)
{
    const LockLayout &layout = LockLayouts::forMode(d.kind);
    const QString shown = escapeBytes(name, 200);
    const QString who = escapeBytes(owner, 200);
    if (d.outcome == AuditRecord::Outcome::StillHeld)
        return tr("released one level of %1 for %2; still held (count %3)").arg(shown, who).arg(d.levelsLeft);
    // Only a layout with a wake-up channel has waiters that the release woke; the others' poll on their own. How many
    // heard it, as counted just before: "waiters woken" with nobody listening read as if somebody had been (issue 47).
    if (layout.capabilities().wakeChannel) {
        const QString channel = escapeBytes(layout.recogniser().releaseChannel(name), 200);
        if (d.listeners == 0)
            return tr("released %1 for %2; nobody was waiting on %3").arg(shown, who, channel);
        if (d.listeners > 0)
            return QCoreApplication::translate("LockScope::Ops",
                "released %1 for %2; the %n waiter(s) listening on %3 were woken", nullptr, d.listeners)
                .arg(shown, who, channel);
        return tr("released %1 for %2; waiters woken").arg(shown, who);
    }
    if (!d.wokeVia.isEmpty())
        return tr("released %1 for %2; its library's waiters woken through %3").arg(shown, who, escapeList(d.wokeVia));
    return tr("released %1 for %2 (a %3 lock: there are no waiters to wake)")
        .arg(shown, who, QString::fromLatin1(layout.id()));
}

// Fills in the record and the summary from the answer, then hands it over.
void finish(ReleaseDone d, const QByteArray &name, const QByteArray &owner,
    const std::function<void(const ReleaseDone &)> &done)
{
    if (d.error.isError()) {
        d.record.setError(d.error);
        d.summary = d.error.message(); // the code stays in the audit record and the exit status
    } else {
        d.record.setOutcome(d.outcome);
        d.record.setLayout(LockLayouts::forMode(d.kind));
        d.summary = d.outcome == AuditRecord::Outcome::NotHeld ? d.message : releasedSummary(d, name, owner);
    }
    done(d);
}
} // namespace

void release(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner,
    std::function<void(const ReleaseDone &)> done)
{
    QPointer<LockClient> guard(client);
    // Who held it just before, with their counts, for the record. A read that fails leaves them out: the release
    // itself decides, and its answer says why.
    inspect(client, name, [guard, url, name, owner, done](const LockNow &before) {
        if (!guard)
            return;
        releaseAsFound(guard, name, owner, [guard, url, name, owner, before, done](const ReleaseResult &r) {
            ReleaseDone d;
            d.record = AuditRecord(QStringLiteral("release"), url, name, guard ? guard->clientId() : QByteArray());
            d.record.insert(QStringLiteral("owner"), jsonText(owner));
            if (!before.error.isError())
                d.record.setHoldersBefore(before.holders);
            d.error = r.error;
            d.message = r.message;
            d.kind = r.kind;
            d.holderNow = r.holderNow;
            d.wokeVia = r.wokeVia;
            d.listeners = before.error.isError() ? -1 : before.listeners;
            if (r.error.isError()) {
                finish(d, name, owner, done);
                return;
            }
            d.outcome = r.outcome == ReleaseResult::Outcome::Released ? AuditRecord::Outcome::Released
                : r.outcome == ReleaseResult::Outcome::StillHeld      ? AuditRecord::Outcome::StillHeld
                                                                      : AuditRecord::Outcome::NotHeld;
            // A layout whose answer names the holder: say whose it is, rather than Redisson's words about threads.
            if (d.outcome == AuditRecord::Outcome::NotHeld && !r.holderNow.isEmpty())
                d.message = tr("%1 is held by token %2, not %3; it was left alone")
                                .arg(escapeBytes(name, 200), escapeBytes(r.holderNow, 200), escapeBytes(owner, 200));
            // Only a hold that goes on has a count and a lease worth reading; the two travel in one round trip.
            if (d.outcome != AuditRecord::Outcome::StillHeld || !guard
                || !LockLayouts::forMode(r.kind).capabilities().reentrant) {
                finish(d, name, owner, done);
                return;
            }
            auto count = std::make_shared<RedisResult>();
            guard->connection()->command({ "HGET", name, owner }, [count](const RedisResult &c) { *count = c; });
            guard->connection()->command(
                { "PTTL", name }, [d, count, name, owner, done](const RedisResult &ttl) mutable {
                    d.levelsLeft = count->value.toInteger();
                    d.ttlMs = ttl.value.toInteger();
                    finish(d, name, owner, done);
                });
        });
    });
}

} // namespace Ops

} // namespace LockScope
