#include "releaseclientdialog.h"

#include "confirmguard.h"
#include "ops/auditlog.h"
#include "redis/bytesformat.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace LockScope {

namespace {
enum Column { LockColumn, WhatColumn, OwnerColumn, CountColumn, LivenessColumn };
}

QString ReleaseClientDialog::whatText(ClientItem::What what)
{
    switch (what) {
    case ClientItem::What::Hold:
        return tr("hold");
    case ClientItem::What::ReadHold:
        return tr("read hold");
    case ClientItem::What::Token:
        return tr("token");
    case ClientItem::What::QueueEntry:
        return tr("queue place");
    }
    return {};
}

ReleaseClientDialog::ReleaseClientDialog(const ClientPlan &plan, QWidget *parent)
    : QDialog(parent)
    , m_plan(plan)
{
    setWindowTitle(tr("Release everything this client holds"));
    m_shownId = escapeBytes(plan.client, 200);
    const QString id = m_shownId.toHtmlEscaped();
    const int count = int(plan.items.size());
    for (const ClientItem &item : plan.items)
        m_alive += item.alive ? 1 : 0;
    if (plan.items.isEmpty()) {
        m_text = tr("<p><b>%1</b> holds nothing and waits for nothing here: there is nothing to release.</p>").arg(id);
    } else {
        m_text = tr("<p>Release everything <b>%1</b> holds or waits for here, %n item(s), each as its library's own "
                    "release gives it back: every level of a hold, its waiters woken; a place in a fair queue given "
                    "up, the new head told.</p>",
            nullptr, count)
                     .arg(id);
    }
    // Nodes the pass could not read: what the client holds there is neither listed nor released.
    if (!plan.partial.isEmpty())
        m_text += tr("<p><b>Not every node could be read:</b> %1. What the client holds there is not listed and is not "
                     "released.</p>")
                      .arg(plan.partial.join(QStringLiteral("; ")).toHtmlEscaped());

    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(m_text, this);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    layout->addWidget(label);

    m_items = new QTreeWidget(this);
    m_items->setAccessibleName(tr("What will be released"));
    m_items->setRootIsDecorated(false);
    m_items->setUniformRowHeights(true);
    m_items->setHeaderLabels({ tr("Lock"), tr("What"), tr("Owner"), tr("Count"), tr("Liveness") });
    // An owner id is one word: it is elided in its middle, where a UUID's ends still tell it apart, never wrapped.
    m_items->setTextElideMode(Qt::ElideMiddle);
    m_items->setWordWrap(false);
    for (const ClientItem &item : plan.items) {
        auto *row = new QTreeWidgetItem(m_items);
        row->setText(LockColumn, escapeBytes(item.name(), 200));
        row->setText(WhatColumn, whatText(item.what));
        row->setText(OwnerColumn, escapeBytes(item.owner, 200));
        row->setText(CountColumn, QString::number(item.count));
        row->setTextAlignment(CountColumn, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(LivenessColumn, item.liveness.isEmpty() ? QStringLiteral("—") : item.liveness);
        row->setToolTip(OwnerColumn, row->text(OwnerColumn));
        row->setToolTip(LivenessColumn, item.liveness);
        if (item.alive) {
            // What would break someone's exclusion stands out from what is only left over.
            QFont bold = row->font(LivenessColumn);
            bold.setBold(true);
            row->setFont(LivenessColumn, bold);
        }
    }
    m_items->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_items->header()->setStretchLastSection(true);
    m_items->setVisible(!plan.items.isEmpty());
    layout->addWidget(m_items, 1);

    auto *guard = new QLabel(
        tr("<p>Only these are released, each only while it is as shown: a hold taken after this list was read, or "
           "taken again since, stays. The owner may still believe it holds them: its own unlock will fail later.</p>"
           "<p>The attempt is recorded in the audit log <tt>%1</tt>, whatever its outcome.</p>")
            .arg(AuditLog::path().toHtmlEscaped()),
        this);
    guard->setWordWrap(true);
    guard->setTextFormat(Qt::RichText);
    guard->setVisible(!plan.items.isEmpty());
    layout->addWidget(guard);

    m_evenIfAlive = new QCheckBox(
        tr("Even if alive: %n item(s) look alive; release them all the same (their holder may still be working "
           "under the lock)",
            nullptr, m_alive),
        this);
    m_evenIfAlive->setVisible(m_alive > 0);
    layout->addWidget(m_evenIfAlive);

    // Why, for the audit record and whoever reads it tomorrow.
    auto *reasonLabel = new QLabel(tr("&Reason (goes into the audit record):"), this);
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("e.g. INC-4711: pod orders-7 killed"));
    reasonLabel->setBuddy(m_reason);
    reasonLabel->setVisible(!plan.items.isEmpty());
    m_reason->setVisible(!plan.items.isEmpty());
    layout->addWidget(reasonLabel);
    layout->addWidget(m_reason);

    m_idLabel = new QLabel(tr("This is a <b>production</b> server. Type the client id to confirm:"), this);
    m_id = new QLineEdit(this);
    m_id->setPlaceholderText(m_shownId);
    m_idLabel->setBuddy(m_id);
    m_idLabel->hide();
    m_id->hide();
    layout->addWidget(m_idLabel);
    layout->addWidget(m_id);

    m_why = new QLabel(this);
    m_why->setWordWrap(true);
    layout->addWidget(m_why);

    auto *buttons
        = new QDialogButtonBox(plan.items.isEmpty() ? QDialogButtonBox::Close : QDialogButtonBox::Cancel, this);
    if (!plan.items.isEmpty()) {
        m_confirm = buttons->addButton(tr("&Release %n item(s)", nullptr, count), QDialogButtonBox::DestructiveRole);
        connect(m_confirm, &QPushButton::clicked, this, &QDialog::accept);
    }
    layout->addWidget(buttons);
    ConfirmGuard::install(this); // Return and Enter cancel, whatever has focus
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_id, &QLineEdit::textChanged, this, &ReleaseClientDialog::updateConfirm);
    connect(m_evenIfAlive, &QCheckBox::toggled, this, &ReleaseClientDialog::updateConfirm);
    resize(860, 420);
    updateConfirm();
}

ClientPlan ReleaseClientDialog::plan() const
{
    ClientPlan plan = m_plan;
    plan.insist = m_evenIfAlive->isChecked();
    plan.reason = m_reason->text().trimmed();
    return plan;
}

void ReleaseClientDialog::setProduction(bool production)
{
    m_production = production;
    const bool asked = production && m_confirm;
    m_idLabel->setVisible(asked);
    m_id->setVisible(asked);
    updateConfirm();
}

bool ReleaseClientDialog::confirmed() const
{
    return m_confirm && whyNot().isEmpty();
}

QString ReleaseClientDialog::whyNot() const
{
    if (!m_confirm)
        return {};
    QStringList why;
    if (m_alive > 0 && !m_evenIfAlive->isChecked())
        why << tr("%n item(s) look alive: releasing a live holder breaks the exclusion it relies on. Tick \"Even if "
                  "alive\" once you know it is gone.",
            nullptr, m_alive);
    if (m_production && m_id->text() != m_shownId)
        why << tr("Type the client id to confirm: this is a production server.");
    return why.join(QLatin1Char(' '));
}

void ReleaseClientDialog::updateConfirm()
{
    if (!m_confirm)
        return;
    const QString why = whyNot();
    m_confirm->setEnabled(why.isEmpty());
    m_confirm->setToolTip(why);
    m_why->setText(why);
    m_why->setVisible(!why.isEmpty());
}

} // namespace LockScope
