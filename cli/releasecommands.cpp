#include "releasecommands.h"

#include "holderlines.h"
#include "liveness/holderwatch.h"

#include "kinds/custom/ownertemplate.h"
#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/auditrecord.h"
#include "ops/forcerelease.h"
#include "ops/forcereleaserecord.h"
#include "ops/inspect.h"
#include "ops/release.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <memory>
#include <unistd.h>

namespace LockScope::Cli {

void ReleaseCommand::start()
{
    const QByteArray name = lockName();
    // As show prints it: a binary token is typed with its \\xNN escapes.
    const QByteArray owner = unescapeBytes(m_parser.value(QStringLiteral("owner")));
    if (owner.isEmpty()) {
        m_out.error(tr("release needs --owner UUID:TID (the holder as listed by show)"));
        finish(ExitUsage);
        return;
    }
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("release refused: read-only mode"))));
        return;
    }
    if (!auditable(QStringLiteral("release")))
        return;
    LockClient *client = makeClient();
    // One reading: what the person is warned about, and the layout whose release script (and so whom it wakes) runs.
    Ops::inspect(
        client, name,
        [this, client, owner](const LockNow &now) {
            warnOnLowConfidence(now);
            Ops::releaseLevels(client, m_connection.auditTarget(), now, owner, 1,
                [this, owner](const ReleaseLevelsDone &all) { released(all.last(), owner); });
        },
        LockAction::Release);
}

void ReleaseCommand::released(const ReleaseDone &r, const QByteArray &owner)
{
    const QByteArray name = lockName();
    {
        audit(r.record);
        if (r.error.isError()) {
            finish(m_out.fail(r.error));
            return;
        }
        if (r.outcome == AuditRecord::Outcome::NotHeld) {
            m_out.error(r.summary);
            finish(ExitNotDone);
            return;
        }
        const bool last = r.outcome == AuditRecord::Outcome::Released;
        m_out.event(QStringLiteral("released"), name, owner, r.levelsLeft, last ? -2 : r.ttlMs, r.summary);
        finish(ExitDone);
    }
}

void ForceReleaseCommand::start()
{
    const QByteArray name = lockName();
    const QByteArray expectOwner = unescapeBytes(m_parser.value(QStringLiteral("expect-owner")));
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
    if (!auditable(QStringLiteral("force-release")) || !productionAllows(name))
        return;
    LockClient *client = makeClient();
    if (const RedisError error = client->validateName(name)) {
        finish(m_out.fail(error));
        return;
    }
    // What is there decides the layout: its holders are shown, and become the guard.
    Ops::inspect(client, name, [this, client, name, expectOwner, confirmed](const LockNow &now) {
        if (now.error.isError()) {
            finish(m_out.fail(now.error)); // not a lock: no prompt for a delete that will never happen
            return;
        }
        warnOnLowConfidence(now);
        if (now.holders.isEmpty()) {
            m_out.error(tr("%1 is not locked: nothing to release").arg(escapeBytes(name, 200)));
            finish(ExitNotDone);
            return;
        }
        // Without --expect-owner, exactly the holders on screen are the guard: if anyone came or went while the
        // person read the prompt, nothing is deleted; the layout this reading found chooses the script. An expected
        // owner who holds nothing here is a mistyped or stale id: said before any prompt, with who holds it.
        const ForceReleasePlan plan = ForceReleasePlan::fromReading(now, expectOwner);
        if (confirmed || plan.ownerMissing()) {
            forceRelease(plan, now);
            return;
        }
        // Whether each holder is alive, with the evidence, before the person confirms: releasing a live holder breaks
        // mutual exclusion. One read: its connections and process (a trace's findings), never renewals unwatched.
        HolderWatch *watch = holderWatch(client->connection());
        // A home-grown lock's token, read as its owner template says (its owner, host, heartbeat).
        LockNow described = now;
        if (const std::shared_ptr<const OwnerTemplate> t = stringLockPatterns().templateFor(now.name))
            for (LockHolder &h : described.holders)
                t->describe(now.name, h);
        watch->readClients([this, watch, now, described, plan] {
            watch->readHeartbeats(described.holders, [this, watch, now, described, plan] {
                const QString holders = describeHolders(now) + QLatin1Char('\n')
                    + holdersFactLines(*watch, described).join(QLatin1Char('\n'));
                const bool wakes = now.layout->capabilities().wakeChannel;
                if (confirm(wakes ? tr("%1\nForce-release it and wake its waiters? [y/N] ").arg(holders)
                                  : tr("%1\nForce-release it (delete the key)? [y/N] ").arg(holders),
                        plan.name))
                    forceRelease(plan, now);
            });
        });
    });
}

void ForceReleaseCommand::forceRelease(const ForceReleasePlan &plan, const LockNow &shown)
{
    auto *client = findChild<LockClient *>();
    const QByteArray name = plan.name;
    const QByteArray owner = shown.holders.isEmpty() ? QByteArray() : shown.holders.first().owner;
    // Whom it wakes, as counted when the prompt read the lock: the summary says how many heard it.
    Ops::forceRelease(client, m_connection.auditTarget(), plan, ForceReleaseShown { shown.holders, shown.listeners },
        [this, plan, name, owner](const ForceReleaseDone &r) {
            // The same record as the console's for the same action, built by the operation.
            audit(r.record);
            if (r.error.isError()) {
                finish(m_out.fail(r.error));
                return;
            }
            if (r.outcome == AuditRecord::Outcome::GuardFailed && plan.guardedByShown()) {
                m_out.error(tr("%1. Run the command again to confirm what is there now").arg(r.summary));
                finish(ExitNotDone);
                return;
            }
            if (r.outcome != AuditRecord::Outcome::Deleted) {
                m_out.error(r.summary);
                finish(ExitNotDone);
                return;
            }
            m_out.event(QStringLiteral("force-released"), name, owner, 0, -2, r.summary);
            finish(ExitDone);
        });
}

} // namespace LockScope::Cli
