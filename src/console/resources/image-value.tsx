/**
 * An image value as antd's Image: a thumbnail of `size` px (cover) whose full-screen preview closes
 * on a click outside the image, its close button or Escape (docs/architecture.md 'Beyond the spec'). Loaded with the first image a
 * page shows (field-value.tsx), so lists without images do not load antd's Image and its preview.
 */
import { Image } from 'antd';

export function ImageValue({ url, size, alt }: { url: string; size: number; alt: string }) {
  return <Image src={url} width={size} height={size} style={{ objectFit: 'cover' }} alt={alt} preview={{ maskClosable: true }} />;
}
