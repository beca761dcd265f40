#include "helpwindow.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace LockScope {

namespace {
QString fileName(HelpWindow::Page page)
{
    return page == HelpWindow::Page::UserGuide ? QStringLiteral("user-guide.md") : QStringLiteral("cli.md");
}

QString title(HelpWindow::Page page)
{
    return page == HelpWindow::Page::UserGuide ? HelpWindow::tr("LockScope user guide")
                                               : HelpWindow::tr("lockscope-cli reference");
}

QString read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return HelpWindow::tr("# Not found\n\n%1 could not be read.").arg(path);
    return QString::fromUtf8(file.readAll());
}
} // namespace

QString HelpWindow::pagePath(Page page)
{
    // Where the package puts its documentation, beside bin/ (a corrected copy can be dropped there); else built in.
    const QString installed
        = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/lockscope/docs/") + fileName(page);
    return QFileInfo::exists(installed) ? installed : QStringLiteral(":/docs/") + fileName(page);
}

HelpWindow::HelpWindow(Page page, QWidget *parent)
    : QDialog(parent)
{
    const QString path = pagePath(page);
    build(title(page), read(path), QFileInfo(path).absolutePath());
}

HelpWindow::HelpWindow(const QString &title, const QString &markdown, QWidget *parent)
    : QDialog(parent)
{
    build(title, markdown, {});
}

void HelpWindow::build(const QString &title, const QString &markdown, const QString &directory)
{
    setWindowTitle(title);
    auto *layout = new QVBoxLayout(this);
    m_browser = new QTextBrowser(this);
    m_browser->setOpenExternalLinks(true);
    if (!directory.isEmpty())
        m_browser->setSearchPaths({ directory });
    m_browser->setMarkdown(markdown);
    layout->addWidget(m_browser);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(900, 700);
}

} // namespace LockScope
