import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import {
  type PageDto,
  type PageTheme,
  type PickableShort,
  useSavePage,
  useSpaceShorts,
} from '../../api/pages';
import { useLinkPagesT } from '../../i18n/link-pages-text';
import { errorText } from '../../lib/errors';
import { toast } from '../../state/toasts';
import { PagePreview } from './PagePreview';

/** A team the user may add pages to (owner or editor). */
export interface WritableTeam {
  id: string;
  name: string;
}

/**
 * A link of the page being edited: the short and its label, with what shows of the short in the
 * editor (`shown`) and on the page without a label (`fallback`: its name, else its code), and
 * whether the page shows it now (`visible`: not expired, used up or flagged).
 */
interface EditedLink {
  shortId: string;
  label: string;
  shown: string;
  fallback: string;
  visible: boolean;
}

const THEMES: readonly PageTheme[] = ['auto', 'light', 'dark'];

const shownOf = (s: Pick<PickableShort, 'code' | 'name'>) =>
  s.name ? `${s.name} (${s.code})` : s.code;

/** Moves the entry at `i` by `by` places (up: -1, down: +1). */
export function moved<T>(list: readonly T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return [...list];
  const out = [...list];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/**
 * 'Neue Link-Seite' or 'Link-Seite bearbeiten' (`page`): address, title, description, colours, and
 * the links (shorts of the page's space, each with an optional label) in order, moved with up and
 * down buttons; beside them (below on a phone) the page's 'Vorschau' as it will look, unsaved
 * edits included. The server checks everything again.
 */
export function PageEditor({
  page,
  teams,
  baseUrl,
  onDone,
}: {
  page: PageDto | null;
  teams: readonly WritableTeam[];
  baseUrl: string;
  onDone: () => void;
}) {
  const { t, lp } = useLinkPagesT();
  const save = useSavePage();
  const [slug, setSlug] = useState(page?.slug ?? '');
  const [title, setTitle] = useState(page?.title ?? '');
  const [description, setDescription] = useState(page?.description ?? '');
  const [theme, setTheme] = useState<PageTheme>(page?.theme ?? 'auto');
  const [team, setTeam] = useState<string | null>(page?.team?.id ?? null);
  const [links, setLinks] = useState<EditedLink[]>(
    (page?.links ?? []).map((l) => ({
      shortId: l.shortId,
      label: l.label ?? '',
      shown: shownOf(l),
      fallback: l.name ?? l.code,
      visible: l.shown,
    })),
  );
  const [error, setError] = useState<string | null>(null);
  const shorts = useSpaceShorts(team);
  const choices = shorts.data ?? [];

  const add = (shortId: string) => {
    const s = choices.find((c) => c.id === shortId);
    if (s) {
      const link = { shortId: s.id, label: '', shown: shownOf(s), fallback: s.name ?? s.code };
      setLinks([...links, { ...link, visible: true }]);
    }
  };
  const setLabel = (i: number, label: string) =>
    setLinks(links.map((l, k) => (k === i ? { ...l, label } : l)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await save.mutateAsync({
        page: page?.id ?? null,
        body: {
          slug: slug.trim(),
          title,
          description: description.trim() ? description : null,
          theme,
          links: links.map((l) => ({ shortId: l.shortId, label: l.label.trim() || null })),
          ...(page === null && team ? { team } : {}),
        },
      });
      toast.success(lp.linkPages.saved);
      onDone();
    } catch (err) {
      setError(errorText(err, lp.linkPages.saveFailed));
    }
  }

  return (
    <Card className="mb-4">
      <Card.Body>
        <Form onSubmit={(e) => void submit(e)} aria-labelledby="page-editor-title">
          <h2 id="page-editor-title" className="h4">
            {page ? lp.linkPages.editTitle : lp.linkPages.createTitle}
          </h2>
          {error && (
            <Alert variant="danger" data-testid="page-error">
              {error}
            </Alert>
          )}
          <Row className="g-4">
            <Col lg={7}>
              {page === null && teams.length > 0 && (
                <Form.Group className="mb-3" controlId="page-space">
                  <Form.Label>{lp.linkPages.space}</Form.Label>
                  <Form.Select
                    value={team ?? ''}
                    onChange={(e) => {
                      setTeam(e.target.value || null);
                      setLinks([]);
                    }}
                  >
                    <option value="">{lp.linkPages.personal}</option>
                    {teams.map((x) => (
                      <option key={x.id} value={x.id}>
                        {x.name}
                      </option>
                    ))}
                  </Form.Select>
                </Form.Group>
              )}
              <Form.Group className="mb-3" controlId="page-slug">
                <Form.Label>{lp.linkPages.slug}</Form.Label>
                <Form.Control
                  value={slug}
                  required
                  maxLength={64}
                  pattern="[A-Za-z0-9_\-]{3,64}"
                  onChange={(e) => setSlug(e.target.value)}
                />
                <Form.Text>
                  {t(lp.linkPages.slugHint, { url: `${baseUrl}/p/${slug.trim() || '…'}` })}
                </Form.Text>
              </Form.Group>
              <Form.Group className="mb-3" controlId="page-title">
                <Form.Label>{lp.linkPages.pageTitle}</Form.Label>
                <Form.Control
                  value={title}
                  required
                  maxLength={120}
                  onChange={(e) => setTitle(e.target.value)}
                />
              </Form.Group>
              <Form.Group className="mb-3" controlId="page-description">
                <Form.Label>{lp.linkPages.description}</Form.Label>
                <Form.Control
                  as="textarea"
                  rows={2}
                  value={description}
                  maxLength={500}
                  onChange={(e) => setDescription(e.target.value)}
                />
              </Form.Group>
              <Form.Group className="mb-3" controlId="page-theme">
                <Form.Label>{lp.linkPages.theme}</Form.Label>
                <Form.Select value={theme} onChange={(e) => setTheme(e.target.value as PageTheme)}>
                  {THEMES.map((x) => (
                    <option key={x} value={x}>
                      {x === 'light'
                        ? lp.linkPages.themeLight
                        : x === 'dark'
                          ? lp.linkPages.themeDark
                          : lp.linkPages.themeAuto}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <fieldset className="mb-3">
                <legend className="h5">{lp.linkPages.linkList}</legend>
                {links.length === 0 && (
                  <p className="text-body-secondary">{lp.linkPages.noLinks}</p>
                )}
                <ol className="list-unstyled" data-testid="page-links">
                  {links.map((l, i) => (
                    <li
                      key={`${l.shortId}-${i}`}
                      className="d-flex flex-wrap gap-2 align-items-center mb-2"
                    >
                      <span className="fw-semibold text-break" style={{ minWidth: '8rem' }}>
                        {l.shown}
                        {!l.visible && (
                          <span className="d-block small fw-normal text-body-secondary">
                            {lp.linkPages.hidden}
                          </span>
                        )}
                      </span>
                      <Form.Control
                        className="flex-grow-1 w-auto"
                        aria-label={`${lp.linkPages.label}: ${l.shown}`}
                        placeholder={lp.linkPages.label}
                        value={l.label}
                        maxLength={120}
                        onChange={(e) => setLabel(i, e.target.value)}
                      />
                      <ButtonGroup size="sm">
                        <Button
                          variant="outline-secondary"
                          aria-label={`${lp.linkPages.up}: ${l.shown}`}
                          disabled={i === 0}
                          onClick={() => setLinks(moved(links, i, -1))}
                        >
                          ↑
                        </Button>
                        <Button
                          variant="outline-secondary"
                          aria-label={`${lp.linkPages.down}: ${l.shown}`}
                          disabled={i === links.length - 1}
                          onClick={() => setLinks(moved(links, i, 1))}
                        >
                          ↓
                        </Button>
                        <Button
                          variant="outline-danger"
                          aria-label={`${lp.linkPages.removeLink}: ${l.shown}`}
                          onClick={() => setLinks(links.filter((_, k) => k !== i))}
                        >
                          ✕
                        </Button>
                      </ButtonGroup>
                    </li>
                  ))}
                </ol>
                <Form.Select
                  aria-label={lp.linkPages.addLink}
                  value=""
                  disabled={links.length >= 100}
                  onChange={(e) => add(e.target.value)}
                >
                  <option value="">{lp.linkPages.chooseShort}</option>
                  {choices.map((s) => (
                    <option key={s.id} value={s.id}>
                      {shownOf(s)}
                    </option>
                  ))}
                </Form.Select>
              </fieldset>
            </Col>
            <Col lg={5}>
              <PagePreview
                title={title}
                description={description}
                theme={theme}
                links={links.map((l, i) => ({
                  key: `${l.shortId}-${i}`,
                  text: l.label.trim() || l.fallback,
                  visible: l.visible,
                }))}
              />
            </Col>
          </Row>
          <div className="d-flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              {lp.linkPages.save}
            </Button>
            <Button variant="outline-secondary" onClick={onDone}>
              {lp.linkPages.cancel}
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
