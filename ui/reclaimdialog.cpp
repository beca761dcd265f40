#include "reclaimdialog.h"

#include "confirmguard.h"
#include "ops/auditlog.h"
#include "reclaim/reaprun.h"
#include "reclaimreportmodel.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace LockScope {

ReclaimDialog::ReclaimDialog(QWidget *parent)
    : QDialog(parent)
    , m_model(new ReclaimReportModel(this))
{
    setWindowTitle(tr("Reclaim by policy"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("<p>A reap policy (docs/reap-policy.md) says which locks may be reclaimed and what must be true of their "
           "holders. The console watches the locks it covers for its longest <tt>verdict_for</tt> and reports every "
           "holder its rules judge gone. Only that report can be released, and each lock only if the check right "
           "before releasing finds it unchanged; every release is recorded in the audit log <tt>%1</tt>.</p>")
            .arg(AuditLog::path().toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    layout->addWidget(intro);

    auto *fileRow = new QHBoxLayout;
    auto *pathLabel = new QLabel(tr("Policy &file:"), this);
    m_path = new QLineEdit(this);
    m_path->setPlaceholderText(tr("reap.yaml"));
    pathLabel->setBuddy(m_path);
    m_browse = new QPushButton(tr("Browse…"), this);
    m_watch = new QPushButton(tr("Watch and report"), this);
    m_watch->setToolTip(tr("Watch the locks the policy covers for its longest verdict_for, then report; nothing is "
                           "written"));
    fileRow->addWidget(pathLabel);
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(m_browse);
    fileRow->addWidget(m_watch);
    layout->addLayout(fileRow);

    m_status = new QLabel(tr("Choose a policy file, then Watch and report."), this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    m_view = new QTableView(this);
    m_view->setAccessibleName(tr("The reaper's report"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    // An owner id is one word: elided in its middle, where a UUID's ends still tell it apart, never wrapped.
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnHidden(ReclaimReportModel::ResultColumn, true); // until a run has results
    layout->addWidget(m_view, 1);

    m_sha = new QLabel(this);
    m_sha->setTextInteractionFlags(Qt::TextSelectableByMouse); // to compare it, or paste it into a ticket
    m_sha->hide();
    layout->addWidget(m_sha);

    // Why, for each audit record and whoever reads it tomorrow.
    auto *reasonLabel = new QLabel(tr("&Reason (goes into each audit record):"), this);
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("e.g. INC-4711: nightly import crashed"));
    reasonLabel->setBuddy(m_reason);
    layout->addWidget(reasonLabel);
    layout->addWidget(m_reason);

    m_nameLabel = new QLabel(tr("This is a <b>production</b> server. Type the policy's name to confirm:"), this);
    m_name = new QLineEdit(this);
    m_nameLabel->setBuddy(m_name);
    m_nameLabel->hide();
    m_name->hide();
    layout->addWidget(m_nameLabel);
    layout->addWidget(m_name);

    m_why = new QLabel(this);
    m_why->setWordWrap(true);
    layout->addWidget(m_why);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_release = buttons->addButton(tr("Release %n lock hold(s)", nullptr, 0), QDialogButtonBox::DestructiveRole);
    layout->addWidget(buttons);
    // No button autoDefault, none but Close with a mnemonic, focus on Close when shown; showEvent() then takes the
    // default from Close too, and keyPressEvent() swallows Return and Enter.
    ConfirmGuard::install(this);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_browse, &QPushButton::clicked, this, &ReclaimDialog::browse);
    connect(m_watch, &QPushButton::clicked, this, [this] {
        const QString path = m_path->text().trimmed();
        if (path.isEmpty()) {
            showError(tr("Choose a policy file first."));
            return;
        }
        emit watchRequested(path);
    });
    connect(m_release, &QPushButton::clicked, this, [this] {
        if (confirmed())
            emit releaseRequested();
    });
    connect(m_name, &QLineEdit::textChanged, this, &ReclaimDialog::updateConfirm);
    resize(980, 560);
    updateConfirm();
}

void ReclaimDialog::showEvent(QShowEvent *event)
{
    // After ConfirmGuard's own pass on Show (an event filter runs first), which makes Close the default: this window
    // stays open while a report is read and a reason typed, so Return closing it would lose the reader's place.
    QDialog::showEvent(event);
    for (QPushButton *button : findChildren<QPushButton *>())
        button->setDefault(false);
}

void ReclaimDialog::keyPressEvent(QKeyEvent *event)
{
    // Return and Enter neither release nor close, whatever has focus (a line edit or a button without autoDefault
    // passes them on to here); Escape still closes.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

void ReclaimDialog::browse()
{
    // An instance opened, not getOpenFileName(): that runs an event loop of its own inside this one.
    const QString current = m_path->text().trimmed();
    auto *files = new QFileDialog(this, tr("Choose a reap policy"),
        current.isEmpty() ? QDir::currentPath() : QFileInfo(current).absolutePath(),
        tr("Reap policies (*.yaml *.yml);;All files (*)"));
    files->setAttribute(Qt::WA_DeleteOnClose);
    files->setFileMode(QFileDialog::ExistingFile);
    files->setAcceptMode(QFileDialog::AcceptOpen);
    connect(files, &QFileDialog::fileSelected, this,
        [this](const QString &path) { m_path->setText(QDir::toNativeSeparators(path)); });
    files->open();
}

void ReclaimDialog::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    updateConfirm();
}

void ReclaimDialog::setProduction(bool production)
{
    m_production = production;
    updateConfirm();
}

void ReclaimDialog::showError(const QString &text)
{
    m_status->setText(text);
    updateConfirm();
}

void ReclaimDialog::showWatching(const QString &text)
{
    m_state = State::Watching;
    m_model->clear();
    m_view->setColumnHidden(ReclaimReportModel::ResultColumn, true);
    m_sha->hide();
    m_status->setText(text);
    updateConfirm();
}

void ReclaimDialog::showReport(const ReapReport &report)
{
    m_state = State::Reported;
    m_model->setReport(report);
    m_view->setColumnHidden(ReclaimReportModel::ResultColumn, true);
    m_view->resizeColumnsToContents();
    const int release = int(report.toRelease().size());
    QString text
        = tr("Policy %1 on %2: %n lock hold(s) to release.", nullptr, release).arg(report.policy, report.server);
    const int others = int(report.items.size()) - release;
    if (others > 0)
        text += QLatin1Char(' ') + tr("%n more left alone (over the run's quota, or protected).", nullptr, others);
    if (!report.partial.isEmpty())
        text += QLatin1Char(' ')
            + tr("Not everything could be seen: %1.").arg(report.partial.join(QStringLiteral("; ")));
    m_status->setText(text);
    m_sha->setText(tr("Report sha256: %1").arg(QString::fromLatin1(report.sha256())));
    m_sha->show();
    m_release->setText(tr("Release %n lock hold(s)", nullptr, release));
    m_name->clear();
    m_name->setPlaceholderText(report.policy);
    updateConfirm();
}

void ReclaimDialog::showRunning()
{
    m_state = State::Running;
    m_status->setText(tr("Checking each lock again, then releasing those still as reported…"));
    updateConfirm();
}

void ReclaimDialog::showResult(const ReapRunDone &done)
{
    m_state = State::Ran;
    m_model->setResult(done.result, done.unapproved);
    m_view->setColumnHidden(ReclaimReportModel::ResultColumn, false);
    m_view->resizeColumnsToContents();
    QString text = done.summary;
    if (!done.unapproved.isEmpty())
        text += QLatin1Char(' ')
            + tr("%n lock hold(s) the check found were not in the report shown and were left alone.", nullptr,
                int(done.unapproved.size()));
    m_status->setText(text);
    updateConfirm();
}

QString ReclaimDialog::reason() const
{
    return m_reason->text().trimmed();
}

QString ReclaimDialog::statusText() const
{
    return m_status->text();
}

QString ReclaimDialog::shaText() const
{
    return m_sha->isHidden() ? QString() : m_sha->text();
}

QString ReclaimDialog::whyNot() const
{
    if (m_readOnly)
        return tr("Read-only connection: the report is shown, nothing is released.");
    switch (m_state) {
    case State::Idle:
    case State::Watching:
        return tr("Watch and report first: only a report you have read can be released.");
    case State::Running:
        return tr("Releasing…");
    case State::Ran:
        return tr("This report has been acted on: watch and report again for a new one.");
    case State::Reported:
        break;
    }
    if (m_model->report().toRelease().isEmpty())
        return tr("The report has nothing to release.");
    if (m_production && m_name->text() != m_model->report().policy)
        return tr("Type the policy's name to confirm: this is a production server.");
    return {};
}

void ReclaimDialog::updateConfirm()
{
    // The name is asked for only where there is something it would confirm.
    const bool asked
        = m_production && !m_readOnly && m_state == State::Reported && !m_model->report().toRelease().isEmpty();
    m_nameLabel->setVisible(asked);
    m_name->setVisible(asked);
    // A run under way keeps its report on screen: a new watch would replace it before its results are in.
    m_watch->setEnabled(m_state != State::Running);
    m_browse->setEnabled(m_state != State::Running);
    const QString why = whyNot();
    m_release->setEnabled(why.isEmpty());
    m_release->setToolTip(why);
    m_why->setText(why);
    m_why->setVisible(!why.isEmpty());
}

} // namespace LockScope
