import { SUPPORT } from '@elex/contract';
import { ImagePlus, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageProblem, type PickedImage, readImage } from './support-image';

const MAX_MB = SUPPORT.maxImageBytes / 1024 / 1024;

/**
 * One optional screenshot: a labelled file input, the types and size it takes, a refusal said at once
 * (role alert: the picker gives no other feedback), and a preview with a remove button.
 */
export function ImageField({
  id,
  image,
  onChange,
}: {
  id: string;
  image: PickedImage | null;
  onChange(image: PickedImage | null): void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const refusal = imageProblem(file);
    if (refusal) {
      setProblem(t(`msg:${refusal}`));
      onChange(null);
      if (input.current) input.current.value = '';
      return;
    }
    try {
      setProblem(null);
      onChange(await readImage(file));
    } catch {
      setProblem(t('msg:supportImageType'));
      onChange(null);
    }
  };
  const remove = () => {
    onChange(null);
    setProblem(null);
    if (input.current) {
      input.current.value = '';
      input.current.focus();
    }
  };

  return (
    <div className="field support-image-field">
      <label htmlFor={id}>{t('support.image')}</label>
      {/* The browser's own picker speaks the browser's language, not the page's: a button of ours
          stands for it, and the input stays in the tab order (visually hidden) for the keyboard. */}
      <div className="support-image-picker">
        <input
          ref={input}
          id={id}
          type="file"
          className="visually-hidden"
          accept={SUPPORT.imageTypes.join(',')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error ${id}-hint` : `${id}-hint`}
          onChange={(event) => void pick(event.target.files?.[0])}
        />
        <label htmlFor={id} className="button button-ghost support-small-button">
          <ImagePlus size={16} aria-hidden="true" />
          {t('support.imageChoose')}
        </label>
        <span className="muted support-preview-name">{image ? image.name : t('support.imageNone')}</span>
      </div>
      <div id={`${id}-hint`} className="field-hint muted">
        {t('support.imageHint', { megabytes: MAX_MB })}
      </div>
      {problem ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {image ? (
        <figure className="support-preview">
          <img src={image.dataUrl} alt={t('support.imagePreview', { name: image.name })} />
          <figcaption>
            <button type="button" className="button button-ghost support-small-button" onClick={remove}>
              <X size={14} aria-hidden="true" />
              {t('support.imageRemove')}
            </button>
          </figcaption>
        </figure>
      ) : null}
    </div>
  );
}
