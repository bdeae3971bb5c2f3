import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';

const SCAN_TIMEOUT_MS = 10_000;

/** Camera QR scanner (qr-scanner, up to 25 scans/s, stops after 10 s without a code). 'No QR code found' is ignored. */
export function QrScannerBox({ onResult, onClose }: { onResult: (text: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState('Starting the camera...');
  const done = useRef(onResult);
  const close = useRef(onClose);
  useEffect(() => {
    done.current = onResult;
    close.current = onClose;
  }, [onResult, onClose]);

  useEffect(() => {
    let stopped = false;
    let scanner: { start(): Promise<void>; stop(): void; destroy(): void } | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    (async () => {
      const { default: QrScanner } = await import('qr-scanner');
      if (stopped || !video.current) return;
      if (!(await QrScanner.hasCamera())) {
        toast.error('Camera not found.');
        close.current();
        return;
      }
      scanner = new QrScanner(
        video.current,
        (result) => {
          if (stopped) return;
          stopped = true;
          scanner?.stop();
          done.current(result.data);
        },
        { maxScansPerSecond: 25, returnDetailedScanResult: true, onDecodeError: () => undefined },
      );
      try {
        await scanner.start();
        setStatus('Point the camera at a QR code.');
        timer = setTimeout(() => {
          if (stopped) return;
          scanner?.stop();
          setStatus('No QR code was read. Try again or type the address.');
        }, SCAN_TIMEOUT_MS);
      } catch {
        toast.error('Camera not found.');
        close.current();
      }
    })();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      scanner?.destroy();
    };
  }, []);

  return (
    <div className="scanner">
      <video ref={video} muted playsInline aria-label="Camera preview" />
      <p className="muted" role="status">
        {status}
      </p>
    </div>
  );
}
