#include "auditlogview.h"

#include "ops/auditlog.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace LockScope {

AuditLogView::AuditLogView(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Audit log"));
    auto *layout = new QVBoxLayout(this);
    m_path = new QLabel(this);
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setWordWrap(true);
    layout->addWidget(m_path);
    m_table = new QTableWidget(this);
    m_table->setAccessibleName(tr("Audit records"));
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels({ tr("When"), tr("Action"), tr("Lock"), tr("Result"), tr("Server"), tr("By") });
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *refresh = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    connect(refresh, &QPushButton::clicked, this, [this] { reload(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(900, 420);
    reload();
}

void AuditLogView::reload(int limit)
{
    const QString path = AuditLog::path();
    QFile file(path);
    QList<QJsonObject> records;
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : file.readAll().split('\n'))
            if (const QJsonDocument doc = QJsonDocument::fromJson(line); doc.isObject())
                records << doc.object();
        m_path->setText(tr("%n record(s) in %1; the newest first.", nullptr, int(records.size())).arg(path));
    } else {
        m_path->setText(tr("Nothing audited yet: %1 does not exist (%2).").arg(path, file.errorString()));
    }
    const int rows = int(qMin<qsizetype>(records.size(), limit));
    m_table->setRowCount(rows);
    for (int row = 0; row < rows; ++row) {
        const QJsonObject r = records.at(records.size() - 1 - row);
        const auto text = [&r](const char *key) { return r.value(QLatin1String(key)).toVariant().toString(); };
        const QStringList cells { text("ts"), text("action"), text("name"), text("result"), text("url"),
            QStringLiteral("%1@%2 (%3)").arg(text("user"), text("host"), text("pid")) };
        for (int column = 0; column < cells.size(); ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            item->setToolTip(QString::fromUtf8(QJsonDocument(r).toJson(QJsonDocument::Indented)));
            m_table->setItem(row, column, item);
        }
    }
    m_table->resizeColumnsToContents();
}

} // namespace LockScope
