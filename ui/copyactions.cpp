#include "copyactions.h"

#include "lockspane.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>

namespace LockScope {

QString shellQuoted(const QString &word)
{
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

CopyActions::CopyActions(LocksPane *locks, LockMonitor *monitor, std::function<QString()> displayUrl, QObject *parent)
    : QObject(parent)
    , m_locks(locks)
    , m_monitor(monitor)
    , m_displayUrl(std::move(displayUrl))
{
    const auto copy = [this](QString (CopyActions::*text)(const QByteArray &) const) {
        const QString value = (this->*text)(m_locks->currentLock());
        if (!value.isEmpty())
            QApplication::clipboard()->setText(value);
    };
    m_name = new QAction(tr("Copy &name"), this);
    m_name->setToolTip(tr("The lock's name as lockscope-cli list and show print it (binary bytes as \\xNN)"));
    connect(m_name, &QAction::triggered, this, [copy] { copy(&CopyActions::nameText); });
    m_owners = new QAction(tr("Copy &owner"), this);
    m_owners->setToolTip(tr("Who holds it, one owner per line: what --owner and --expect-owner take"));
    connect(m_owners, &QAction::triggered, this, [copy] { copy(&CopyActions::ownersText); });
    m_command = new QAction(tr("Copy lockscope-cli co&mmand"), this);
    m_command->setToolTip(tr("The lockscope-cli command that shows this lock, for a terminal or a ticket"));
    connect(m_command, &QAction::triggered, this, [copy] { copy(&CopyActions::commandText); });
    connect(m_locks, &LocksPane::currentLockChanged, this, &CopyActions::updateEnabled);
    connect(m_monitor, &LockMonitor::locksChanged, this, &CopyActions::updateEnabled);
    updateEnabled();
}

QList<QAction *> CopyActions::actions() const
{
    return { m_name, m_owners, m_command };
}

QString CopyActions::nameText(const QByteArray &name) const
{
    return name.isEmpty() ? QString() : escapeBytes(name);
}

QString CopyActions::ownersText(const QByteArray &name) const
{
    const LockRecord *r = name.isEmpty() ? nullptr : m_monitor->record(name);
    if (!r || !r->present)
        return {};
    QStringList owners;
    for (const LockHolder &h : r->info.holders)
        owners << escapeBytes(h.owner);
    return owners.join(QLatin1Char('\n'));
}

QString CopyActions::commandText(const QByteArray &name) const
{
    if (name.isEmpty())
        return {};
    return QStringLiteral("lockscope-cli --url %1 show %2")
        .arg(shellQuoted(m_displayUrl()), shellQuoted(nameText(name)));
}

void CopyActions::updateEnabled()
{
    const QByteArray name = m_locks->currentLock();
    m_name->setEnabled(!name.isEmpty());
    m_command->setEnabled(!name.isEmpty());
    m_owners->setEnabled(!ownersText(name).isEmpty());
}

} // namespace LockScope
