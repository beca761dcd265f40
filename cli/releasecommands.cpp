#include "releasecommands.h"

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
    // The release script (and whom it wakes) is the one the lock's layout needs as Redis has it now.
    Ops::release(client, name, owner, [this, client, name, owner](const ReleaseDone &r) {
        AuditRecord record(QStringLiteral("release"), m_connection.toDisplayTarget(), name, client->clientId());
        record.insert(QStringLiteral("owner"), Output::jsonText(owner));
        if (r.error.isError()) {
            record.setError(r.error);
            audit(m_out, record);
            finish(m_out.fail(r.error));
            return;
        }
        record.setOutcome(r.outcome);
        record.setLayout(LockLayouts::forMode(r.kind));
        audit(m_out, record);
        if (r.outcome == AuditRecord::Outcome::NotHeld) {
            m_out.error(r.message);
            finish(ExitNotDone);
            return;
        }
        const bool last = r.outcome == AuditRecord::Outcome::Released;
        const LockLayout &layout = LockLayouts::forMode(r.kind);
        const QString shown = escapeBytes(name, 200);
        // Only a layout with a wake-up channel has waiters that the release woke; the others' poll on their own.
        const QString text = !last ? tr("released one level of %1 for %2; still held (count %3)")
                                         .arg(shown, QString::fromUtf8(owner))
                                         .arg(r.levelsLeft)
            : layout.capabilities().wakeChannel
            ? tr("released %1 for %2; waiters woken").arg(shown, QString::fromUtf8(owner))
            : !r.wokeVia.isEmpty() ? tr("released %1 for %2; its library's waiters woken through %3")
                                         .arg(shown, QString::fromUtf8(owner), escapeList(r.wokeVia))
                                   : tr("released %1 for %2 (a %3 lock: there are no waiters to wake)")
                                         .arg(shown, QString::fromUtf8(owner), QString::fromLatin1(layout.id()));
        m_out.event(QStringLiteral("released"), name, owner, r.levelsLeft, last ? -2 : r.ttlMs, text);
        finish(ExitDone);
    });
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
    if (!auditable(QStringLiteral("force-release")))
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
        if (now.holders.isEmpty()) {
            m_out.error(tr("%1 is not locked: nothing to release").arg(escapeBytes(name, 200)));
            finish(ExitNotDone);
            return;
        }
        // An expected owner who holds nothing here is a mistyped or stale id: said before any prompt, with who holds
        // it.
        if (!expectOwner.isEmpty() && !now.owners().contains(expectOwner)) {
            // Audited as the guard that stopped it, as when the script finds the owner gone.
            ForceReleaseDone stopped;
            stopped.outcome = AuditRecord::Outcome::GuardFailed;
            stopped.holdersNow = now.owners();
            stopped.kind = now.kind;
            audit(m_out,
                Ops::forceReleaseRecord(m_connection.toDisplayTarget(), client->clientId(),
                    ForceReleasePlan { name, now.owners(), expectOwner }, now.holders, stopped));
            QStringList holders;
            for (const QByteArray &owner : now.owners())
                holders << escapeBytes(owner, 200);
            m_out.error(
                tr("%1 is not held by %2 (held by %3); nothing changed")
                    .arg(escapeBytes(name, 200), escapeBytes(expectOwner, 200), holders.join(QStringLiteral(", "))));
            finish(ExitNotDone);
            return;
        }
        const bool wakes = now.layout->capabilities().wakeChannel;
        if (!confirmed
            && !confirm(wakes ? tr("%1\nForce-release it and wake its waiters? [y/N] ").arg(describeHolders(now))
                              : tr("%1\nForce-release it (delete the key)? [y/N] ").arg(describeHolders(now))))
            return;
        // Without --expect-owner, exactly the holders on screen are the guard: if anyone came or went while the
        // person read the prompt, nothing is deleted. The kind, and so whom the release wakes, is read again then:
        // a waiter may have queued behind a fair lock while the prompt was open.
        forceRelease(ForceReleasePlan { name, now.owners(), expectOwner }, now);
    });
}

void ForceReleaseCommand::forceRelease(const ForceReleasePlan &plan, const LockNow &shown)
{
    auto *client = findChild<LockClient *>();
    const QByteArray name = plan.name;
    const QList<LockHolder> before = shown.holders;
    Ops::forceRelease(client, plan, [this, client, plan, name, before](const ForceReleaseDone &r) {
        // The same record as the console's for the same action (ops/forcereleaserecord.h).
        audit(m_out, Ops::forceReleaseRecord(m_connection.toDisplayTarget(), client->clientId(), plan, before, r));
        if (r.error.isError()) {
            finish(m_out.fail(r.error));
            return;
        }
        QStringList expected;
        for (const QByteArray &field : plan.guard().fields)
            expected << escapeBytes(field, 200);
        QStringList now;
        for (const QByteArray &field : r.holdersNow)
            now << escapeBytes(field, 200);
        if (r.outcome != AuditRecord::Outcome::Deleted) {
            const QString nowText = now.isEmpty() ? tr("nobody") : now.join(QStringLiteral(", "));
            if (r.outcome == AuditRecord::Outcome::AlreadyGone)
                m_out.error(tr("%1 was already gone; nothing changed").arg(escapeBytes(name, 200)));
            else if (plan.guardedByShown())
                m_out.error(tr("%1 changed after it was shown (held by %2, now by %3); nothing changed. Run the "
                               "command again to confirm what is there now")
                                .arg(escapeBytes(name, 200), expected.join(QStringLiteral(", ")), nowText));
            else
                m_out.error(tr("%1 is no longer held by %2 (now by %3); nothing changed")
                                .arg(escapeBytes(name, 200), expected.value(0), nowText));
            finish(ExitNotDone);
            return;
        }
        const QByteArray owner = before.isEmpty() ? QByteArray() : before.first().owner;
        // What was deleted is the layout the script ran for: Redis's at that moment.
        const LockLayout &layout = LockLayouts::forMode(r.kind.value_or(LockKind::Reentrant));
        m_out.event(QStringLiteral("force-released"), name, owner, 0, -2,
            layout.capabilities().wakeChannel ? tr("force-released %1; waiters woken").arg(escapeBytes(name, 200))
                : !r.wokeVia.isEmpty()        ? tr("force-released %1; its library's waiters woken through %2")
                                             .arg(escapeBytes(name, 200), escapeList(r.wokeVia))
                                       : tr("force-released %1 (a %2 lock: there are no waiters to wake)")
                                             .arg(escapeBytes(name, 200), QString::fromLatin1(layout.id())));
        finish(ExitDone);
    });
}

} // namespace LockScope::Cli
