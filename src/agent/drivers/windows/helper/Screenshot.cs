// A window's picture as JPEG (base64): PrintWindow with PW_RENDERFULLCONTENT (the window paints
// itself, also when covered; WPF, DirectX and Chromium content included), BitBlt from the screen
// when it refuses. Cut to the window's frame bounds (DWM's, without the invisible resize borders),
// the same rectangle listWindows reports, so element bounds made relative to it line up.
using System;
using System.Drawing;
using System.Drawing.Imaging;
using System.IO;

namespace Deskhook.Uia
{
    public static class Screenshot
    {
        public static JsonObject Take(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            var quality = (int)Math.Max(1, Math.Min(100, Args.OptInt(args, "quality") ?? 75));
            Backend.Require();
            var window = Windows.Find(windowId);
            if (Native.IsIconic(window.Hwnd) || !Native.IsWindowVisible(window.Hwnd))
                throw new Fail("WINDOW_NOT_FOUND", "The window has no size on screen (minimised or hidden)");
            tagRECT outer;
            Native.GetWindowRect(window.Hwnd, out outer);
            var frame = Windows.FrameBounds(window.Hwnd);
            var width = outer.right - outer.left;
            var height = outer.bottom - outer.top;
            if (width <= 0 || height <= 0) throw new Fail("WINDOW_NOT_FOUND", "The window has no size on screen (minimised or hidden)");
            using (var whole = new Bitmap(width, height, PixelFormat.Format32bppArgb))
            {
                var painted = Capture(window.Hwnd, whole, outer);
                var cut = Rectangle.Intersect(
                    new Rectangle(frame.left - outer.left, frame.top - outer.top, frame.right - frame.left, frame.bottom - frame.top),
                    new Rectangle(0, 0, width, height));
                if (cut.Width <= 0 || cut.Height <= 0) cut = new Rectangle(0, 0, width, height);
                using (var picture = whole.Clone(cut, PixelFormat.Format24bppRgb))
                {
                    if (!painted || Blank(picture))
                    {
                        // A locked session or the secure desktop leaves windows unpainted: say so, not a black picture.
                        var blocked = Desktop.Blocked();
                        if (blocked != null) throw blocked("take a screenshot");
                    }
                    var result = new JsonObject();
                    result["jpeg"] = Convert.ToBase64String(Jpeg(picture, quality));
                    result["width"] = picture.Width;
                    result["height"] = picture.Height;
                    return result;
                }
            }
        }

        static bool Capture(IntPtr hwnd, Bitmap bitmap, tagRECT outer)
        {
            using (var graphics = Graphics.FromImage(bitmap))
            {
                var hdc = graphics.GetHdc();
                try
                {
                    if (Native.PrintWindow(hwnd, hdc, Native.PW_RENDERFULLCONTENT)) return true;
                    var screen = Native.GetDC(IntPtr.Zero);
                    try
                    {
                        return Native.BitBlt(hdc, 0, 0, bitmap.Width, bitmap.Height, screen, outer.left, outer.top,
                            Native.SRCCOPY | Native.CAPTUREBLT);
                    }
                    finally
                    {
                        Native.ReleaseDC(IntPtr.Zero, screen);
                    }
                }
                finally
                {
                    graphics.ReleaseHdc(hdc);
                }
            }
        }

        /// <summary>Every sampled pixel black: nothing was painted.</summary>
        static bool Blank(Bitmap picture)
        {
            for (var i = 1; i < 8; i++)
                for (var j = 1; j < 8; j++)
                {
                    var pixel = picture.GetPixel(picture.Width * i / 8, picture.Height * j / 8);
                    if (pixel.R > 8 || pixel.G > 8 || pixel.B > 8) return false;
                }
            return true;
        }

        static byte[] Jpeg(Bitmap picture, int quality)
        {
            ImageCodecInfo codec = null;
            foreach (var candidate in ImageCodecInfo.GetImageEncoders())
                if (candidate.MimeType == "image/jpeg") codec = candidate;
            using (var stream = new MemoryStream())
            {
                if (codec == null) picture.Save(stream, ImageFormat.Jpeg);
                else
                {
                    using (var parameters = new EncoderParameters(1))
                    {
                        parameters.Param[0] = new EncoderParameter(Encoder.Quality, (long)quality);
                        picture.Save(stream, codec, parameters);
                    }
                }
                return stream.ToArray();
            }
        }
    }
}
