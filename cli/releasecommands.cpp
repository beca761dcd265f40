#include "releasecommands.h"

#include "lock/lockclient.h"
#include "ops/auditrecord.h"
#include "ops/forcerelease.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QJsonArray>

#include <memory>
#include <unistd.h>

namespace LockScope::Cli {

namespace {
QJsonArray holdersJson(const RedisValue &fields)
{
    QJsonArray holders;
    for (int i = 0; i + 1 < fields.size(); i += 2) {
        const QByteArray field = fields.at(i).bytes();
        // A read-write lock's mode is a field of its hash, not a holder.
        if (field == "mode")
            continue;
        // A number, as in the lock objects of list and show.
        holders.append(QJsonObject { { QStringLiteral("owner"), Output::jsonText(field) },
            { QStringLiteral("count"), fields.at(i + 1).bytes().toLongLong() } });
    }
    return holders;
}

} // namespace

void ReleaseCommand::start()
{
    const QByteArray name = positional(1).toUtf8();
    const QByteArray owner = m_parser.value(QStringLiteral("owner")).toUtf8();
    if (owner.isEmpty()) {
        m_out.error(tr("release needs --owner UUID:TID (the holder as listed by show)"));
        finish(ExitUsage);
        return;
    }
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("release refused: read-only mode"))));
        return;
    }
    LockClient *client = makeClient();
    releaseAs(client, name, owner);
}

void ReleaseCommand::releaseAs(LockClient *client, const QByteArray &name, const QByteArray &owner)
{
    // The release script (and whom it wakes) is the one the lock's kind needs as Redis has it now.
    client->releaseAsFound(name, owner, [this, client, name, owner](const ReleaseResult &r) {
        AuditRecord record(QStringLiteral("release"), m_connection.toDisplayUrl(), name, client->clientId());
        record.insert(QStringLiteral("owner"), Output::jsonText(owner));
        if (r.error.isError()) {
            record.setError(r.error);
            audit(m_out, record);
            finish(m_out.fail(r.error));
            return;
        }
        if (r.outcome == ReleaseResult::Outcome::NotHeld) {
            record.setOutcome(AuditRecord::Outcome::NotHeld);
            audit(m_out, record);
            m_out.error(r.message);
            finish(ExitNotDone);
            return;
        }
        const bool last = r.outcome == ReleaseResult::Outcome::Released;
        record.setOutcome(last ? AuditRecord::Outcome::Released : AuditRecord::Outcome::StillHeld);
        audit(m_out, record);
        auto count = std::make_shared<RedisResult>();
        client->connection()->command({ "HGET", name, owner }, [count](const RedisResult &r) { *count = r; });
        // Read together with the count: a hold that goes on still has a lease (-2 would say the lock is gone).
        client->connection()->command({ "PTTL", name }, [this, name, owner, last, count](const RedisResult &ttl) {
            const qint64 left = count->value.toInteger();
            m_out.event(QStringLiteral("released"), name, owner, left, last ? -2 : ttl.value.toInteger(),
                last ? tr("released %1 for %2; waiters woken").arg(escapeBytes(name, 200), QString::fromUtf8(owner))
                     : tr("released one level of %1 for %2; still held (count %3)")
                           .arg(escapeBytes(name, 200), QString::fromUtf8(owner))
                           .arg(left));
            finish(ExitDone);
        });
    });
}

void ForceReleaseCommand::start()
{
    const QByteArray name = positional(1).toUtf8();
    const QByteArray expectOwner = m_parser.value(QStringLiteral("expect-owner")).toUtf8();
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("force-release refused: read-only mode"))));
        return;
    }
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    if (!confirmed && !isatty(STDIN_FILENO)) {
        m_out.error(tr("force-release needs --yes when standard input is not a terminal"));
        finish(ExitUsage);
        return;
    }
    LockClient *client = makeClient();
    if (const RedisError error = client->validateName(name)) {
        finish(m_out.fail(error));
        return;
    }
    // What is there decides the path: a string lock (SET NX PX) has its own; anything but a lock hash is refused.
    client->probeKind(name, QByteArray(), [this, client, name, expectOwner, confirmed](const LockKindProbe &found) {
        if (found.stringLock()) {
            forceReleaseString(name, expectOwner, confirmed);
            return;
        }
        if (found.error.isError()) {
            finish(m_out.fail(found.error));
            return;
        }
        showAndForceRelease(client, name, expectOwner, confirmed);
    });
}

void ForceReleaseCommand::showAndForceRelease(
    LockClient *client, const QByteArray &name, const QByteArray &expectOwner, bool confirmed)
{
    // Show what is about to go, so the person confirming knows whose lock it is.
    client->connection()->cork();
    auto fields = std::make_shared<RedisResult>();
    client->connection()->command({ "HGETALL", name }, [fields](const RedisResult &r) { *fields = r; });
    client->connection()->command(
        { "PTTL", name }, [this, fields, name, expectOwner, confirmed](const RedisResult &ttl) {
            if (!fields->ok()) {
                finish(m_out.fail(fields->error));
                return;
            }
            if (fields->value.size() == 0) {
                m_out.error(tr("%1 is not locked: nothing to release").arg(escapeBytes(name, 200)));
                finish(ExitNotDone);
                return;
            }
            const QString description = describeHolders(name, fields->value, ttl.value.toInteger());
            if (!confirmed && !confirm(tr("%1\nForce-release it and wake its waiters? [y/N] ").arg(description)))
                return;
            QByteArrayList holders;
            for (int i = 0; i + 1 < fields->value.size(); i += 2)
                if (const QByteArray field = fields->value.at(i).bytes(); field != "mode")
                    holders << field;
            // Without --expect-owner, exactly the holders on screen are the guard: if anyone came or went while
            // the person read the prompt, nothing is deleted. The kind, and so whom the release wakes, is read
            // again now: a waiter may have queued behind a fair lock while the prompt was open.
            forceRelease(ForceReleasePlan { name, holders, expectOwner }, holdersJson(fields->value));
        });
    client->connection()->uncork();
}

void ForceReleaseCommand::forceRelease(const ForceReleasePlan &plan, const QJsonArray &before)
{
    auto *client = findChild<LockClient *>();
    const QByteArray name = plan.name;
    Ops::forceRelease(client, plan, [this, client, plan, name, before](const ForceReleaseDone &r) {
        AuditRecord record(QStringLiteral("force-release"), m_connection.toDisplayUrl(), name, client->clientId());
        record.insert(QStringLiteral("holders_before"), before);
        plan.describe(record);
        QStringList expected;
        for (const QByteArray &field : plan.guard().fields)
            expected << Output::jsonText(field);
        QStringList now;
        for (const QByteArray &field : r.holdersNow)
            now << escapeBytes(field, 200);
        if (r.outcome == AuditRecord::Outcome::GuardFailed)
            record.insert(QStringLiteral("holders_now"), QJsonArray::fromStringList(now));
        if (r.error.isError()) {
            record.setError(r.error);
            audit(m_out, record);
            finish(m_out.fail(r.error));
            return;
        }
        record.setOutcome(r.outcome);
        audit(m_out, record);
        const bool shownGuard = plan.guardedByShown();
        if (r.outcome != AuditRecord::Outcome::Deleted) {
            const QString nowText = now.isEmpty() ? tr("nobody") : now.join(QStringLiteral(", "));
            if (r.outcome == AuditRecord::Outcome::AlreadyGone)
                m_out.error(tr("%1 was already gone; nothing changed").arg(escapeBytes(name, 200)));
            else if (shownGuard)
                m_out.error(tr("%1 changed after it was shown (held by %2, now by %3); nothing changed. Run the "
                               "command again to confirm what is there now")
                                .arg(escapeBytes(name, 200), expected.join(QStringLiteral(", ")), nowText));
            else
                m_out.error(tr("%1 is no longer held by %2 (now by %3); nothing changed")
                                .arg(escapeBytes(name, 200), expected.value(0), nowText));
            finish(ExitNotDone);
            return;
        }
        const QByteArray owner = before.isEmpty()
            ? QByteArray()
            : before.first().toObject().value(QStringLiteral("owner")).toString().toUtf8();
        m_out.event(QStringLiteral("force-released"), name, owner, 0, -2,
            tr("force-released %1; waiters woken").arg(escapeBytes(name, 200)));
        finish(ExitDone);
    });
}

} // namespace LockScope::Cli
