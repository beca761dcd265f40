#include "acquiredialog.h"

#include "kinds/locklayouts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace LockScope {

AcquireDialog::AcquireDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Acquire a lock"));
    auto *form = new QFormLayout(this);
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("e.g. orders:42"));
    m_kind = new QComboBox(this);
    // Every layout's ways to take a lock, in the registry's order.
    for (const AcquireMode &mode : LockLayouts::modes()) {
        m_kind->addItem(tr(mode.label), int(mode.kind));
        if (mode.tip)
            m_kind->setItemData(m_kind->count() - 1, tr(mode.tip), Qt::ToolTipRole);
    }
    m_watchdog = new QCheckBox(tr("Renew with the watchdog"), this);
    m_watchdog->setChecked(true);
    // Redisson's lockWatchdogTimeout for this one hold: a demo of the watchdog wants a short one (issue 47).
    m_watchdogLease = new QSpinBox(this);
    m_watchdogLease->setRange(3000, 24 * 3600 * 1000);
    m_watchdogLease->setSingleStep(1000);
    m_watchdogLease->setValue(30000);
    m_watchdogLease->setSuffix(tr(" ms"));
    m_watchdogLease->setToolTip(tr("The lease the watchdog keeps renewing, every third of it"));
    m_lease = new QSpinBox(this);
    m_lease->setRange(100, 24 * 3600 * 1000);
    m_lease->setValue(30000);
    m_lease->setSuffix(tr(" ms"));
    m_lease->setEnabled(false);
    m_wait = new QSpinBox(this);
    m_wait->setRange(0, 3600 * 1000);
    m_wait->setValue(0);
    m_wait->setSuffix(tr(" ms"));
    m_wait->setSpecialValueText(tr("try once"));
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Kind:"), m_kind);
    m_kindNote = new QLabel(this);
    m_kindNote->setWordWrap(true);
    m_kindNote->setForegroundRole(QPalette::PlaceholderText);
    m_kindNote->setVisible(false);
    form->addRow(QString(), m_kindNote);
    form->addRow(QString(), m_watchdog);
    form->addRow(tr("Watchdo&g lease:"), m_watchdogLease);
    form->addRow(tr("Fixed &lease:"), m_lease);
    form->addRow(tr("&Wait up to:"), m_wait);
    m_notice = new QLabel(this);
    m_notice->setWordWrap(true);
    m_notice->setVisible(false);
    form->addRow(m_notice);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Acquire"));
    form->addRow(buttons);
    connect(m_name, &QLineEdit::textChanged, this, &AcquireDialog::nameChanged);
    connect(m_kind, &QComboBox::activated, this, [this] { m_kindChosen = true; });
    connect(m_watchdog, &QCheckBox::toggled, m_lease, [this](bool on) {
        m_lease->setEnabled(!on);
        m_watchdogLease->setEnabled(on);
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this,
        [buttons](const QString &text) { buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.isEmpty()); });
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
}

void AcquireDialog::setName(const QByteArray &name)
{
    m_name->setText(QString::fromUtf8(name));
}

bool AcquireDialog::isStringLock() const
{
    return LockLayouts::forMode(LockMode(m_kind->currentData().toInt())).capabilities().tokenHolder;
}

void AcquireDialog::setLookup(Lookup lookup)
{
    m_lookup = std::move(lookup);
    nameChanged();
}

void AcquireDialog::nameChanged()
{
    if (!m_lookup)
        return;
    const QByteArray name = m_name->text().toUtf8();
    const Known known = name.isEmpty() ? Known() : m_lookup(name);
    if (known.layout) {
        setLayout(*known.layout, name);
    } else {
        m_kindNote->setVisible(false);
        if (!m_kindChosen)
            m_kind->setCurrentIndex(0);
    }
    setNotice(known.notice);
}

void AcquireDialog::setLayout(const LockLayout &layout, const QByteArray &name)
{
    const QList<AcquireMode> modes = layout.modes();
    const int at = modes.isEmpty() ? -1 : m_kind->findData(int(modes.first().kind));
    if (at < 0) {
        // Nothing of this console's takes it (a semaphore, a latch): the acquire itself says why it is refused.
        m_kindNote->setVisible(false);
        return;
    }
    m_kind->setCurrentIndex(at);
    m_kindNote->setText(tr("Set to %1 because %2 is held as one: taking it as another kind is refused.")
                            .arg(m_kind->currentText(), QString::fromUtf8(name)));
    m_kindNote->setVisible(true);
}

AcquireRequest AcquireDialog::request() const
{
    AcquireRequest r;
    r.name = m_name->text().toUtf8();
    r.kind = LockMode(m_kind->currentData().toInt());
    r.leaseMs = m_watchdog->isChecked() ? -1 : m_lease->value();
    r.watchdogTimeoutMs = m_watchdog->isChecked() ? m_watchdogLease->value() : 0;
    r.waitMs = m_wait->value();
    // One token for the console: every hold it takes is one thread's, so re-acquiring is reentry.
    r.token = "console";
    return r;
}

void AcquireDialog::setWatchdogTimeout(qint64 ms)
{
    m_watchdogLease->setValue(int(qBound(qint64(m_watchdogLease->minimum()), ms, qint64(m_watchdogLease->maximum()))));
}

void AcquireDialog::setNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

} // namespace LockScope
