#pragma once

#include "consoleaudit.h"
#include "ops/counteraction.h"

#include <QObject>

#include <functional>

class QAction;
class QWidget;

namespace LockScope {

class LockClient;
class LockMonitor;
struct LockRecord;

// The console's actions on Redisson's semaphores and count-down latches (Ops::counterAction): add permits to a
// semaphore, give back one permit of an expirable semaphore, open a latch. Each asks in a dialog that does not block,
// shows what the monitor saw (open is guarded by the count shown), runs asynchronously, reports through message(),
// refreshes the row and is audited as lockscope-cli writes it. Enabled only on rows that have what they act on, and
// never in read-only mode (which the core refuses too).
class CounterActions : public QObject
{
    Q_OBJECT
public:
    CounterActions(LockClient *client, LockMonitor *monitor, QWidget *window, QString connection, bool readOnly,
        QObject *parent = nullptr);

    QAction *addPermitsAction() const { return m_addPermits; }
    QAction *releasePermitAction() const { return m_releasePermit; }
    QAction *openLatchAction() const { return m_openLatch; }
    QList<QAction *> actions() const { return { m_addPermits, m_releasePermit, m_openLatch }; }

    void setCurrentLock(const QByteArray &name);
    void updateEnabled();
    void setNotifier(AuditNotifier *notifier) { m_audit.setNotifier(notifier); }

signals:
    void message(const QString &text, bool error);

private:
    const LockRecord *current() const;
    void askPermits();
    void askPermit();
    void askOpen();
    void run(const CounterPlan &plan);

    LockClient *m_client;
    LockMonitor *m_monitor;
    QWidget *m_window;
    QString m_connection;
    bool m_readOnly;
    ConsoleAudit m_audit;
    QByteArray m_current;
    QAction *m_addPermits;
    QAction *m_releasePermit;
    QAction *m_openLatch;
};

} // namespace LockScope
