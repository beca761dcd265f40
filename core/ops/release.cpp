#include "ops/release.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/inspect.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QPointer>

#include <memory>
#include <optional>

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

namespace {
// A hold this client took whose holder is a random token (a string lock, a sorted set's member): a lock whatever the
// patterns say (taken outside them), as no application data holds our token. A hash field is not spared the reading's
// judgement: an application's hash written over the name may keep our field beside its own.
std::optional<LockMode> ownTokenHold(const LockClient &client, const QByteArray &name, const QByteArray &owner)
{
    if (!client.tracksHold(name, owner))
        return std::nullopt;
    for (const HoldEvent &hold : client.holds())
        if (hold.name == name && hold.owner == owner && LockLayouts::forMode(hold.kind).capabilities().tokenHolder)
            return hold.kind;
    return std::nullopt;
}

// One level given back on the strength of the reading before: its layout's script, its holders in the record.
void releaseRead(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner,
    const LockNow &before, std::function<void(const ReleaseDone &)> done)
{
    QPointer<LockClient> guard(client);
    const std::optional<LockMode> own = ownTokenHold(*client, name, owner);
    auto answered = [guard, url, name, owner, before, done](const ReleaseResult &r) {
        ReleaseDone d;
        d.record = AuditRecord(QStringLiteral("release"), url, name, guard ? guard->clientId() : QByteArray());
        d.record.insert(QStringLiteral("owner"), jsonText(owner));
        if (before.lock)
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
        guard->connection()->command({ "PTTL", name }, [d, count, name, owner, done](const RedisResult &ttl) mutable {
            d.levelsLeft = count->value.toInteger();
            d.ttlMs = ttl.value.toInteger();
            finish(d, name, owner, done);
        });
    };
    if (before.error.isError() && !own) {
        // Refused by the reading: nothing was sent but reads.
        ReleaseResult r;
        r.error = before.error;
        r.name = name;
        r.owner = owner;
        r.kind = before.actionMode(owner);
        // Later, as every answer comes: a caller looping over levels never sees its own call answer inside it.
        QMetaObject::invokeMethod(
            client, [answered, r] { answered(r); }, Qt::QueuedConnection);
        return;
    }
    client->release(name, owner, answered, own ? *own : before.actionMode(owner));
}
} // namespace

void release(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner,
    std::function<void(const ReleaseDone &)> done)
{
    releaseLevels(client, url, name, owner, 1, [done](const ReleaseLevelsDone &all) { done(all.last()); });
}

void releaseLevels(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner, int levels,
    std::function<void(const ReleaseLevelsDone &)> done)
{
    // Read-only mode refuses before anything is read: a monitor never writes, and a refusal needs no reading.
    if (const RedisError error = client->checkWrite("release", name)) {
        LockNow refused;
        refused.name = name;
        refused.error = error;
        auto all = std::make_shared<ReleaseLevelsDone>();
        releaseRead(client, url, name, owner, refused, [all, done](const ReleaseDone &d) {
            all->levels << d;
            done(*all);
        });
        return;
    }
    QPointer<LockClient> guard(client);
    inspect(
        client, name,
        [guard, url, owner, levels, done](const LockNow &before) {
            if (guard)
                releaseLevels(guard, url, before, owner, levels, done);
        },
        LockAction::Release);
}

void releaseLevels(LockClient *client, const QString &url, const LockNow &before, const QByteArray &owner, int levels,
    std::function<void(const ReleaseLevelsDone &)> done)
{
    QPointer<LockClient> guard(client);
    const QByteArray name = before.name;
    auto all = std::make_shared<ReleaseLevelsDone>();
    auto next = std::make_shared<std::function<void()>>();
    // The levels go one script each, on the one reading: the layout does not change under a hold that is still
    // ours, and the script checks the hold every time.
    auto reading = std::make_shared<LockNow>(before);
    *next = [guard, url, name, owner, levels, reading, done, all, next] {
        if (!guard)
            return;
        releaseRead(guard, url, name, owner, *reading, [owner, levels, reading, done, all, next](const ReleaseDone &d) {
            all->levels << d;
            // The next level's record says what was there before it: the count this level's answer left, read with
            // it, not a new reading of the lock.
            if (d.outcome == AuditRecord::Outcome::StillHeld)
                for (LockHolder &h : reading->holders)
                    if (h.owner == owner)
                        h.count = d.levelsLeft;
            const bool more
                = d.outcome == AuditRecord::Outcome::StillHeld && (levels < 0 || all->levels.size() < levels);
            if (more) {
                (*next)();
                return;
            }
            *next = nullptr; // the cycle through the captured function ends here
            done(*all);
        });
    };
    (*next)();
}

} // namespace Ops

} // namespace LockScope
