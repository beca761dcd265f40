#include "ops/acquire.h"

#include "kinds/locklayouts.h"
#include "lock/lockclient.h"
#include "ops/inspect.h"

#include <QPointer>

namespace LockScope::Ops {

void acquire(LockClient *client, const QString &url, const AcquireRequest &request,
    std::function<void(const AcquireDone &)> done, std::function<void()> sending)
{
    QPointer<LockClient> guard(client);
    auto refuse = [done](const RedisError &error, const AcquireRequest &request) {
        AcquireDone d;
        d.refused = true;
        d.result.name = request.name;
        d.result.error = error;
        done(d);
    };
    if (const RedisError error = client->checkWrite("acquire", request.name)) {
        QMetaObject::invokeMethod(
            client, [refuse, error, request] { refuse(error, request); }, Qt::QueuedConnection);
        return;
    }
    inspect(
        client, request.name,
        [guard, url, request, refuse, done, sending](const LockNow &before) {
            if (!guard)
                return;
            if (before.error.isError()) { // says what is there, and that the acquire was refused
                refuse(before.error, request);
                return;
            }
            const QByteArray clientId = guard->clientId();
            if (sending)
                sending();
            guard->acquire(request, [url, request, before, clientId, done](const AcquireResult &r) {
                AcquireDone d;
                d.result = r;
                d.record = AuditRecord(QStringLiteral("acquire"), url, request.name, clientId);
                d.record.setHoldersBefore(before.owners());
                if (r.error.isError())
                    d.record.setError(r.error);
                else
                    d.record.setOutcome(r.acquired ? AuditRecord::Outcome::Acquired : AuditRecord::Outcome::Busy);
                d.record.setLayout(LockLayouts::forMode(request.kind));
                done(d);
            });
        },
        LockAction::Acquire);
}

bool setWatchdog(LockClient *client, const QString &url, const QByteArray &name, const QByteArray &owner, bool on,
    AuditRecord *record)
{
    LockMode kind = LockMode::Reentrant;
    bool ours = false;
    for (const HoldEvent &hold : client->holds())
        if (hold.name == name && hold.owner == owner) {
            kind = hold.kind;
            ours = true;
        }
    if (!ours || !client->setWatchdogEnabled(name, owner, on))
        return false;
    *record = AuditRecord(
        on ? QStringLiteral("watchdog-on") : QStringLiteral("watchdog-off"), url, name, client->clientId());
    record->setHoldersBefore(QList<QByteArray> { owner });
    record->setOutcome(AuditRecord::Outcome::Done);
    record->setLayout(LockLayouts::forMode(kind));
    return true;
}

} // namespace LockScope::Ops
