export { LocationField, type LocationFieldProps } from './LocationField';
export { LocationPickerDialog, type LocationPickerDialogProps } from './LocationPickerDialog';
export { formatCoordinates } from './format';
